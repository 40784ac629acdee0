import { useQuery } from "@tanstack/react-query";
import type { AdminFinance } from "@shared/payments";

/** GET /api/admin/finance: escrow held, platform revenue and open disputes. */
export const adminFinanceQueryKey = ["/api/admin/finance"] as const;

export function useAdminFinance(enabled: boolean) {
  return useQuery<AdminFinance>({ queryKey: adminFinanceQueryKey, enabled });
}
