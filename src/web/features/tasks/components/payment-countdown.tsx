import { useNow } from "../hooks/use-now";
import { countdownLabel } from "./task-format";

/** Minutes and seconds left to pay, or 'Expired' (docs/product.md#web-app); ticks every second on its own. */
export function PaymentCountdown({ deadline }: { deadline: string }) {
  const now = useNow();
  return (
    <span className="font-mono font-semibold tabular-nums" data-testid="payment-countdown">
      {countdownLabel(deadline, now)}
    </span>
  );
}
