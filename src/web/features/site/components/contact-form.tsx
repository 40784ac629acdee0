import { zodResolver } from "@hookform/resolvers/zod";
import { contactBodySchema, type ContactBody } from "@shared/site";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { maxLengthOf } from "@/lib/form";
import { useSchemaForm } from "@/lib/schema-form";
import { useSendContactMessage } from "../api/send-contact-message";

const fields = contactBodySchema.shape;
const EMPTY: ContactBody = { name: "", email: "", subject: "", message: "" };

/** The "Get in Touch" form (docs/product.md#contact-and-appointments): four required fields; errors under each field, toasts per docs/product.md#web-app. */
export function ContactForm() {
  const form = useSchemaForm<ContactBody>({ resolver: zodResolver(contactBodySchema), defaultValues: EMPTY });
  const send = useSendContactMessage();
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((body) =>
    send.mutate(body, {
      onSuccess: () => {
        toast({ title: "Message Sent!", description: "We've received your message and will get back to you soon." });
        form.reset(EMPTY);
      },
      onError: (error) => {
        const rest = form.showServerErrors(error, "Please try again later.");
        if (rest) toast({ title: "Failed to Send", description: rest, variant: "destructive" });
      },
    }),
  );

  return (
    <form className="space-y-4" noValidate onSubmit={onSubmit} aria-label="Contact form">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Name" required error={errors.name?.message}>
          <Input autoComplete="name" maxLength={maxLengthOf(fields.name)} {...form.register("name")} />
        </FormField>
        <FormField label="Email" required error={errors.email?.message}>
          <Input type="email" autoComplete="email" maxLength={maxLengthOf(fields.email)} {...form.register("email")} />
        </FormField>
      </div>
      <FormField label="Subject" required error={errors.subject?.message}>
        <Input maxLength={maxLengthOf(fields.subject)} {...form.register("subject")} />
      </FormField>
      <FormField label="Message" required error={errors.message?.message}>
        <Textarea rows={6} maxLength={maxLengthOf(fields.message)} {...form.register("message")} />
      </FormField>
      <Button type="submit" className="w-full sm:w-auto" disabled={send.isPending}>
        {send.isPending ? "Sending..." : "Send Message"}
      </Button>
    </form>
  );
}
