import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { BackgroundCheck } from "@shared/background-checks";
import { apiRequest } from "@/lib/api";
import { activeProvidersQueryKey } from "./get-active-providers";
import { applicationsQueryKey } from "./get-applications";
import { auditLogQueryKey } from "./get-audit-log";

/** POST /api/admin/providers/{userId}/background-checks/start: Checkr invites the applicant (decision 064). */
export function useStartBackgroundCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => apiRequest<BackgroundCheck>("POST", `/api/admin/providers/${userId}/background-checks/start`),
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: applicationsQueryKey }),
        queryClient.invalidateQueries({ queryKey: activeProvidersQueryKey }),
        queryClient.invalidateQueries({ queryKey: auditLogQueryKey }),
      ]);
    },
  });
}
