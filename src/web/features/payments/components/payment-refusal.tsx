import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";

/** What a refused card leaves the poster to do (docs/product.md, Money: a failed card can be retried). */
export const CARD_REFUSED_NEXT_STEP =
  "Check the card's details and try again, use another card, or ask your bank why it refused the payment.";

/**
 * A refused payment said on the card form itself, where the poster tries again: a toast vanished
 * after five seconds and left a form that looked untouched.
 */
export function PaymentRefusal({ reason }: { reason: string }) {
  return (
    <Alert variant="destructive" data-testid="payment-refusal">
      <AlertTitle>Payment failed</AlertTitle>
      <AlertDescription>
        {reason} {CARD_REFUSED_NEXT_STEP}
      </AlertDescription>
    </Alert>
  );
}
