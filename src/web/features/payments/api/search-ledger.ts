import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { LedgerPage } from "@shared/receipts";

/** The admin's ledger filters as the URL's query: empty ones are left out. */
export interface LedgerFilters {
  account: string;
  taskId: string;
  from: string;
  to: string;
}

export function ledgerQuery(filters: LedgerFilters, after?: number): string {
  const params = new URLSearchParams(Object.entries(filters).filter(([, value]) => value.trim() !== ""));
  if (after !== undefined) params.set("after", String(after));
  return params.toString();
}

/** GET /api/admin/ledger: one page of matching entries, newest first. */
export function useLedgerPage(filters: LedgerFilters, after: number | undefined) {
  return useQuery<LedgerPage>({ queryKey: [`/api/admin/ledger?${ledgerQuery(filters, after)}`], placeholderData: keepPreviousData });
}

export const ledgerCsvUrl = (filters: LedgerFilters) => `/api/admin/ledger.csv?${ledgerQuery(filters)}`;
