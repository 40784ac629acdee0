import { zodResolver } from "@hookform/resolvers/zod";
import { changeEmailBodySchema, type ChangeEmailBody } from "@shared/auth";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { toast } from "@/components/ui/use-toast";
import { useSchemaForm } from "@/lib/schema-form";
import { useChangeEmail } from "../api/change-email";

interface Props {
  /** The address the account has now. */
  currentEmail: string;
}

const EMPTY: ChangeEmailBody = { newEmail: "", password: "" };

/**
 * Change of e-mail: a link goes to the new address and the old one is told; the change happens
 * when the link is opened (docs/product.md, Accounts: recovery and verification).
 */
export function ChangeEmailForm({ currentEmail }: Props) {
  const form = useSchemaForm<ChangeEmailBody>({ resolver: zodResolver(changeEmailBodySchema), defaultValues: EMPTY });
  const mutation = useChangeEmail();
  const { errors } = form.formState;
  const submit = form.handleSubmit((body) =>
    mutation.mutate(body, {
      onSuccess: () => form.reset(EMPTY),
      onError: (error) => {
        // A refusal the server names a field for lands under that field (docs/product.md#validation).
        const rest = form.showServerErrors(error, "That did not work. Please try again in a moment.");
        if (rest) toast({ title: "E-mail address not changed", description: rest, variant: "destructive" });
      },
    }),
  );
  return (
    <form className="space-y-4" noValidate onSubmit={(event) => void submit(event)}>
      <p className="break-words text-sm text-muted-foreground">
        Your address now: <span className="font-medium text-foreground">{currentEmail}</span>
      </p>
      {mutation.isSuccess && (
        <Alert variant="success" role="status">
          <AlertDescription className="break-words">{mutation.data.message}</AlertDescription>
        </Alert>
      )}
      <FormField label="New e-mail address" required error={errors.newEmail?.message}>
        <Input type="email" autoComplete="email" {...form.register("newEmail")} />
      </FormField>
      <FormField
        label="Current password"
        description="To make sure it is you. If you only sign in with single sign-on, leave it empty."
        error={errors.password?.message}
      >
        <PasswordInput autoComplete="current-password" {...form.register("password")} />
      </FormField>
      <Button type="submit" disabled={mutation.isPending}>
        {mutation.isPending ? "Sending..." : "Send confirmation link"}
      </Button>
    </form>
  );
}
