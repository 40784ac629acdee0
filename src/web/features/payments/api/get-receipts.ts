import { useQuery } from "@tanstack/react-query";
import type { Receipt, ReceiptList } from "@shared/receipts";

/** GET /api/receipts: the signed-in person's receipts; refetched when one of their tasks changes. */
export const receiptsQueryKey = ["/api/receipts"] as const;

export function useReceipts() {
  return useQuery<ReceiptList>({ queryKey: receiptsQueryKey });
}

/** GET /api/receipts/{id}: one receipt of a payment, tip or refund. */
export function useReceipt(id: string) {
  return useQuery<Receipt>({ queryKey: [...receiptsQueryKey, id] });
}

/** The PDF of the receipt, downloaded by the browser with the session cookie. */
export const receiptPdfUrl = (id: string) => `/api/receipts/${id}/pdf`;
