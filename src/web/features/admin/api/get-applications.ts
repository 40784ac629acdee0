import { useQuery } from "@tanstack/react-query";
import type { ProviderProfile } from "@shared/providers";

/** GET /api/admin/applications/pending: pending and under-review applications, oldest first. */
export const applicationsQueryKey = ["/api/admin/applications/pending"] as const;

export function useApplications(enabled: boolean) {
  return useQuery<ProviderProfile[]>({ queryKey: applicationsQueryKey, enabled });
}
