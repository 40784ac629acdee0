import { useQuery } from "@tanstack/react-query";
import type { AuditEntry } from "@shared/providers";

/** GET /api/admin/audit-log: the latest 200 admin actions. */
export const auditLogQueryKey = ["/api/admin/audit-log"] as const;

export function useAuditLog(enabled: boolean) {
  return useQuery<AuditEntry[]>({ queryKey: auditLogQueryKey, enabled });
}
