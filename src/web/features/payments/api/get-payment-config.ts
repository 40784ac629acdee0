import { useQuery } from "@tanstack/react-query";
import type { PaymentConfig } from "@shared/payments";

/** GET /api/payments/config: which card form to show (sandbox or Stripe) and Stripe's public key. */
export const paymentConfigQueryKey = ["/api/payments/config"] as const;

export function usePaymentConfig() {
  return useQuery<PaymentConfig>({ queryKey: paymentConfigQueryKey });
}
