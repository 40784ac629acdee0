import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useState } from "react";
import { Controller } from "react-hook-form";
import { z } from "zod";
import { expiryPassed, luhnValid, parseExpiry, sandboxConfirmBodySchema } from "@shared/payments";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { useSchemaForm } from "@/lib/schema-form";
import { useConfirmSandboxPayment } from "../api/confirm-sandbox-payment";
import { formatExpiry, groupDigits } from "./card-format";
import { PaymentRefusal } from "./payment-refusal";

const fields = sandboxConfirmBodySchema.shape;

// The server's card rules (src/shared/payments.ts) plus what spares a round trip: the Luhn check
// and an expiry typed as MM/YY that has not passed. The server repeats every check.
const cardFormSchema = z.object({
  cardNumber: fields.cardNumber.refine(luhnValid, { error: "Your card number is invalid." }),
  expiry: z
    .string()
    .transform(parseExpiry)
    .refine((exp) => exp !== null && fields.expMonth.safeParse(exp.month).success && fields.expYear.safeParse(exp.year).success, {
      error: "Enter the expiry as MM/YY.",
    })
    .refine((exp) => exp === null || !expiryPassed(exp.month, exp.year, new Date()), { error: "Your card's expiration date is in the past." }),
  cvc: fields.cvc,
});
type CardFormInput = z.input<typeof cardFormSchema>;
type CardFormValues = z.output<typeof cardFormSchema>;

/** The sandbox's card form; the server decides the outcome from Stripe's test numbers. */
export function SandboxCardForm({ clientSecret, submitLabel, onPaid }: { clientSecret: string; submitLabel: string; onPaid: () => void }) {
  const form = useSchemaForm<CardFormInput, CardFormValues>({
    resolver: zodResolver(cardFormSchema),
    defaultValues: { cardNumber: "", expiry: "", cvc: "" },
  });
  const confirm = useConfirmSandboxPayment();
  const [refusal, setRefusal] = useState<string | null>(null);
  const { errors } = form.formState;
  // The form opens when the poster presses "Pay by card" (task-payment-form.tsx): straight to the number.
  useEffect(() => form.setFocus("cardNumber"), [form]);

  const submit = form.handleSubmit(({ cardNumber, expiry, cvc }) => {
    if (!expiry) return; // Refused by the schema already; narrows the type.
    setRefusal(null);
    confirm.mutate(
      { clientSecret, cardNumber, expMonth: expiry.month, expYear: expiry.year, cvc },
      {
        onSuccess: onPaid,
        onError: (error) => {
          // "cardNumber: Your card number is invalid." shows under the card number (docs/product.md#validation).
          setRefusal(
            form.showServerErrors(error, "Your payment could not be processed.", (path) =>
              path === "cardNumber" || path === "cvc" ? path : path === "expMonth" || path === "expYear" ? "expiry" : null,
            ),
          );
        },
      },
    );
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-4" aria-label="Card payment">
      <FormField label="Card number" required error={errors.cardNumber?.message} description="Sandbox mode: use 4242 4242 4242 4242 to pay.">
        {(control) => (
          <Controller
            control={form.control}
            name="cardNumber"
            render={({ field }) => (
              <Input
                inputMode="numeric"
                autoComplete="cc-number"
                {...control}
                {...field}
                onChange={(e) => field.onChange(groupDigits(e.target.value))}
              />
            )}
          />
        )}
      </FormField>
      {/* items-start: only the CVC has a hint under it, and a stretched Expiry field dropped its box below the CVC's. */}
      <div className="grid grid-cols-2 items-start gap-4">
        <FormField label="Expiry (MM/YY)" required error={errors.expiry?.message}>
          {(control) => (
            <Controller
              control={form.control}
              name="expiry"
              render={({ field }) => (
                <Input
                  autoComplete="cc-exp"
                  placeholder="MM/YY"
                  {...control}
                  {...field}
                  inputMode="numeric"
                  onChange={(e) => field.onChange(formatExpiry(e.target.value))}
                />
              )}
            />
          )}
        </FormField>
        <FormField label="CVC" required description="3 or 4 digits" error={errors.cvc?.message}>
          {(control) => (
            <Controller
              control={form.control}
              name="cvc"
              render={({ field }) => (
                <Input
                  inputMode="numeric"
                  autoComplete="cc-csc"
                  {...control}
                  {...field}
                  onChange={(e) => field.onChange(e.target.value.replace(/\D/g, "").slice(0, 4))}
                />
              )}
            />
          )}
        </FormField>
      </div>
      {refusal ? <PaymentRefusal reason={refusal} /> : null}
      <Button type="submit" disabled={confirm.isPending}>
        {confirm.isPending ? "Processing..." : submitLabel}
      </Button>
    </form>
  );
}
