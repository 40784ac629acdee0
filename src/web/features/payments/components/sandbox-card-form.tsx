import { useState, type FormEvent } from "react";
import { expiryPassed, luhnValid, parseExpiry } from "@shared/payments";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/api";
import { useConfirmSandboxPayment } from "../api/confirm-sandbox-payment";

interface Errors {
  cardNumber?: string;
  expiry?: string;
  cvc?: string;
}

function validate(cardNumber: string, expiry: string, cvc: string): Errors {
  const errors: Errors = {};
  const digits = cardNumber.replace(/[\s-]/g, "");
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) errors.cardNumber = "Your card number is invalid.";
  const exp = parseExpiry(expiry);
  if (!exp) errors.expiry = "Enter the expiry as MM/YY.";
  else if (expiryPassed(exp.month, exp.year, new Date())) errors.expiry = "Your card's expiration date is in the past.";
  if (!/^\d{3,4}$/.test(cvc)) errors.cvc = "CVC must be 3 or 4 digits";
  return errors;
}

/** "4242424242424242" → "4242 4242 4242 4242" as the person types. */
function groupDigits(value: string): string {
  return value
    .replace(/\D/g, "")
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, "$1 ");
}

/**
 * The sandbox's card form. The checks here only spare a round trip; the server repeats them and
 * decides the outcome from Stripe's test numbers.
 */
export function SandboxCardForm({ clientSecret, submitLabel, onPaid }: { clientSecret: string; submitLabel: string; onPaid: () => void }) {
  const [cardNumber, setCardNumber] = useState("");
  const [expiry, setExpiry] = useState("");
  const [cvc, setCvc] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const confirm = useConfirmSandboxPayment();

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(cardNumber, expiry, cvc);
    setErrors(found);
    const exp = parseExpiry(expiry);
    if (Object.keys(found).length > 0 || !exp) return;
    confirm.mutate(
      { clientSecret, cardNumber: cardNumber.replace(/\s/g, ""), expMonth: exp.month, expYear: exp.year, cvc },
      {
        onSuccess: onPaid,
        onError: (error) =>
          toast({ title: "Payment Failed", description: errorMessage(error, "Your payment could not be processed."), variant: "destructive" }),
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Card payment">
      <FormField label="Card number" required error={errors.cardNumber} description="Sandbox mode: use 4242 4242 4242 4242 to pay.">
        <Input
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          value={cardNumber}
          onChange={(e) => setCardNumber(groupDigits(e.target.value))}
        />
      </FormField>
      <div className="grid grid-cols-2 gap-4">
        <FormField label="Expiry (MM/YY)" required error={errors.expiry}>
          <Input autoComplete="cc-exp" placeholder="MM/YY" value={expiry} onChange={(e) => setExpiry(e.target.value.slice(0, 7))} />
        </FormField>
        <FormField label="CVC" required error={errors.cvc}>
          <Input
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            value={cvc}
            onChange={(e) => setCvc(e.target.value.replace(/\D/g, "").slice(0, 4))}
          />
        </FormField>
      </div>
      <Button type="submit" disabled={confirm.isPending}>
        {confirm.isPending ? "Processing..." : submitLabel}
      </Button>
    </form>
  );
}
