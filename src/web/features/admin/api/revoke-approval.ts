import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api";
import { activeProvidersQueryKey } from "./get-active-providers";
import { applicationsQueryKey } from "./get-applications";
import { auditLogQueryKey } from "./get-audit-log";

/**
 * POST /api/admin/providers/{userId}/revoke {reason}: an approved provider's approval is taken away;
 * the server tells them why and how to appeal (docs/product.md, Moderation).
 */
export function useRevokeApproval() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, reason }: { userId: string; reason: string }) => apiRequest("POST", `/api/admin/providers/${userId}/revoke`, { reason }),
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: activeProvidersQueryKey }),
        queryClient.invalidateQueries({ queryKey: applicationsQueryKey }),
        queryClient.invalidateQueries({ queryKey: auditLogQueryKey }),
      ]);
    },
  });
}
