import { useQuery } from "@tanstack/react-query";
import type { OutboxEntry } from "@shared/providers";

/** GET /api/admin/outbox: the latest 200 e-mails and their delivery status. */
export const outboxQueryKey = ["/api/admin/outbox"] as const;

export function useOutbox(enabled: boolean) {
  return useQuery<OutboxEntry[]>({ queryKey: outboxQueryKey, enabled });
}
