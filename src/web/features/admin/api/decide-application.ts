import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api";
import { activeProvidersQueryKey } from "./get-active-providers";
import { applicationsQueryKey } from "./get-applications";
import { auditLogQueryKey } from "./get-audit-log";

export type Decision = { userId: string; action: "approve" | "review" } | { userId: string; action: "reject"; reason: string };

/** POST /api/admin/applications/{userId}/approve | /reject {reason} | /review */
export function useDecideApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: Decision) =>
      apiRequest(
        "POST",
        `/api/admin/applications/${decision.userId}/${decision.action}`,
        decision.action === "reject" ? { reason: decision.reason } : undefined,
      ),
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: applicationsQueryKey }),
        queryClient.invalidateQueries({ queryKey: activeProvidersQueryKey }),
        queryClient.invalidateQueries({ queryKey: auditLogQueryKey }),
      ]);
    },
  });
}
