import { useQuery } from "@tanstack/react-query";
import type { PayoutHistory, YearlyStatement } from "@shared/receipts";

/** GET /api/payments/payouts: the provider's payouts, the tasks each paid, and the years with earnings. */
export const payoutHistoryQueryKey = ["/api/payments/payouts"] as const;

export function usePayoutHistory() {
  return useQuery<PayoutHistory>({ queryKey: payoutHistoryQueryKey });
}

/** GET /api/payments/statements/{year}. */
export function useYearlyStatement(year: number) {
  return useQuery<YearlyStatement>({ queryKey: ["/api/payments/statements", String(year)] });
}

export const EARNINGS_CSV_URL = "/api/payments/earnings.csv";
export const statementPdfUrl = (year: number) => `/api/payments/statements/${year}/pdf`;
