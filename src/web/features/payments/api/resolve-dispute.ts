import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ResolveDisputeBody } from "@shared/disputes";
import { apiRequest } from "@/lib/api";
import { adminFinanceQueryKey } from "./get-admin-finance";

// The admin feature's audit-log query; refreshed by key so features stay independent.
const auditLogKey = ["/api/admin/audit-log"] as const;

/** POST /api/admin/disputes/{taskId}/resolve {refund, reason, recoverFromProvider}. */
export function useResolveDispute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ taskId, ...body }: ResolveDisputeBody & { taskId: string }) => apiRequest("POST", `/api/admin/disputes/${taskId}/resolve`, body),
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminFinanceQueryKey }),
        queryClient.invalidateQueries({ queryKey: auditLogKey }),
      ]);
    },
  });
}
