import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { BackgroundCheck, ManualCheckBody } from "@shared/background-checks";
import { apiRequest } from "@/lib/api";
import { activeProvidersQueryKey } from "./get-active-providers";
import { applicationsQueryKey } from "./get-applications";
import { auditLogQueryKey } from "./get-audit-log";

/** POST /api/admin/providers/{userId}/background-checks: a check the admin did by hand (decision 064). */
export function useRecordBackgroundCheck(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ManualCheckBody) => apiRequest<BackgroundCheck>("POST", `/api/admin/providers/${userId}/background-checks`, body),
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: applicationsQueryKey }),
        queryClient.invalidateQueries({ queryKey: activeProvidersQueryKey }),
        queryClient.invalidateQueries({ queryKey: auditLogQueryKey }),
      ]);
    },
  });
}
