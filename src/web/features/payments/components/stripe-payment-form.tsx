import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe, type Stripe } from "@stripe/stripe-js";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { PaymentRefusal } from "./payment-refusal";

// Loaded only when Stripe is the gateway (this module is imported lazily), so the landing bundle
// never carries Stripe's code. One Stripe.js instance per key for the page's life.
const instances = new Map<string, Promise<Stripe | null>>();

function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let instance = instances.get(publishableKey);
  if (!instance) {
    instance = loadStripe(publishableKey);
    instances.set(publishableKey, instance);
  }
  return instance;
}

interface Props {
  publishableKey: string;
  clientSecret: string;
  submitLabel: string;
  onPaid: () => void;
}

function PaymentElementForm({ submitLabel, onPaid }: Pick<Props, "submitLabel" | "onPaid">) {
  const stripe = useStripe();
  const elements = useElements();
  const [pending, setPending] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!stripe || !elements) return;
    setPending(true);
    setRefusal(null);
    // Cards that need no redirect finish here; others come back to the dashboard (docs/product.md#money).
    const { error } = await stripe.confirmPayment({
      elements,
      confirmParams: { return_url: `${window.location.origin}/dashboard` },
      redirect: "if_required",
    });
    setPending(false);
    if (error) {
      setRefusal(error.message ?? "Your payment could not be processed.");
      return;
    }
    onPaid();
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="grid gap-4" aria-label="Card payment">
      <PaymentElement />
      {refusal ? <PaymentRefusal reason={refusal} /> : null}
      <Button type="submit" disabled={!stripe || pending}>
        {pending ? "Processing..." : submitLabel}
      </Button>
    </form>
  );
}

/** Stripe's Payment Element for one PaymentIntent (a task's payment or a tip). */
export default function StripePaymentForm({ publishableKey, clientSecret, submitLabel, onPaid }: Props) {
  return (
    <Elements stripe={stripeFor(publishableKey)} options={{ clientSecret }}>
      <PaymentElementForm submitLabel={submitLabel} onPaid={onPaid} />
    </Elements>
  );
}
