import { CARD_REFUSED_NEXT_STEP } from "@shared/payments";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";

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
