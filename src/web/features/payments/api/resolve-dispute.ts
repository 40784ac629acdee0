import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api";
import { adminFinanceQueryKey } from "./get-admin-finance";

export interface DisputeResolution {
  taskId: string;
  action: "refund" | "release";
  reason: string;
}

// The admin feature's audit-log query; refreshed by key so features stay independent.
const auditLogKey = ["/api/admin/audit-log"] as const;

/** POST /api/admin/disputes/{taskId}/resolve {action, reason}. */
export function useResolveDispute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ taskId, ...body }: DisputeResolution) => apiRequest("POST", `/api/admin/disputes/${taskId}/resolve`, body),
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminFinanceQueryKey }),
        queryClient.invalidateQueries({ queryKey: auditLogKey }),
      ]);
    },
  });
}
