import { useQuery } from "@tanstack/react-query";
import type { Earnings } from "@shared/payments";

/** GET /api/payments/earnings: the provider's held, available and paid-out money per task. */
export const earningsQueryKey = ["/api/payments/earnings"] as const;

export function useEarnings(enabled: boolean) {
  return useQuery<Earnings>({ queryKey: earningsQueryKey, enabled });
}
