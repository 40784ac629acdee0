import { zodResolver } from "@hookform/resolvers/zod";
import { useMemo } from "react";
import { Controller } from "react-hook-form";
import { CONTACT_METHODS } from "@shared/constants";
import {
  appointmentFormSchema,
  CONTACT_METHOD_LABELS,
  earliestAppointment,
  toAppointmentBody,
  toDateTimeLocalValue,
  type AppointmentFormInput,
  type AppointmentFormValues,
} from "@shared/site";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { maxLengthOf } from "@/lib/form";
import { useSchemaForm } from "@/lib/schema-form";
import { useRequestAppointment } from "../api/request-appointment";

const INITIAL: AppointmentFormInput = {
  name: "",
  email: "",
  phone: "",
  appointmentDate: "",
  reason: "",
  preferContact: "visit",
};

// The schema reads the clock each time it validates, so a page left open overnight still refuses
// what has become "today".
const schema = appointmentFormSchema(() => new Date());
const fields = schema.shape;

/** The "Schedule an Office Visit" form (docs/product.md#contact-and-appointments): errors under each field (validation: docs/product.md#contact-and-appointments), toasts per docs/product.md#web-app. */
export function AppointmentForm() {
  const form = useSchemaForm<AppointmentFormInput, AppointmentFormValues>({
    resolver: zodResolver(schema),
    defaultValues: INITIAL,
  });
  const request = useRequestAppointment();
  const { errors } = form.formState;
  const min = useMemo(() => toDateTimeLocalValue(earliestAppointment(new Date())), []);

  const onSubmit = form.handleSubmit((values) =>
    request.mutate(toAppointmentBody(values), {
      onSuccess: () => {
        toast({ title: "Appointment Request Submitted!", description: "We'll review your request and get back to you shortly." });
        form.reset(INITIAL);
      },
      onError: (error) => {
        // "appointmentDate: …" from the server shows under the date (docs/product.md#validation).
        const rest = form.showServerErrors(error, "Failed to submit appointment request. Please try again.");
        if (rest) toast({ title: "Error", description: rest, variant: "destructive" });
      },
    }),
  );

  return (
    <form className="space-y-4" noValidate onSubmit={onSubmit} aria-label="Appointment request form">
      <FormField label="Full Name" required error={errors.name?.message}>
        <Input autoComplete="name" maxLength={maxLengthOf(fields.name)} {...form.register("name")} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Email" required error={errors.email?.message}>
          <Input type="email" autoComplete="email" maxLength={maxLengthOf(fields.email)} {...form.register("email")} />
        </FormField>
        <FormField label="Phone" required error={errors.phone?.message}>
          <Input type="tel" autoComplete="tel" maxLength={maxLengthOf(fields.phone)} {...form.register("phone")} />
        </FormField>
      </div>
      <FormField
        label="Appointment Date & Time"
        required
        description="No same-day appointments: choose tomorrow or later, between 9:00 AM and 6:00 PM."
        error={errors.appointmentDate?.message}
      >
        <Input type="datetime-local" min={min} {...form.register("appointmentDate")} />
      </FormField>
      <FormField label="Preferred Contact Method" required error={errors.preferContact?.message}>
        {({ id, ...aria }, { labelId }) => (
          <Controller
            control={form.control}
            name="preferContact"
            render={({ field }) => (
              <RadioGroup
                id={id}
                {...aria}
                aria-labelledby={labelId}
                value={field.value}
                onValueChange={field.onChange}
                className="flex flex-wrap gap-4"
              >
                {CONTACT_METHODS.map((method) => (
                  <div key={method} className="flex items-center gap-2">
                    <RadioGroupItem value={method} id={`${id}-${method}`} />
                    <Label htmlFor={`${id}-${method}`} className="font-normal">
                      {CONTACT_METHOD_LABELS[method]}
                    </Label>
                  </div>
                ))}
              </RadioGroup>
            )}
          />
        )}
      </FormField>
      <FormField label="Reason for Visit" required error={errors.reason?.message}>
        <Textarea rows={4} maxLength={maxLengthOf(fields.reason)} {...form.register("reason")} />
      </FormField>
      <Button type="submit" className="w-full" disabled={request.isPending}>
        {request.isPending ? "Submitting..." : "Submit Appointment Request"}
      </Button>
    </form>
  );
}
