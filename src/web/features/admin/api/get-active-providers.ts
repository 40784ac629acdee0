import { useQuery } from "@tanstack/react-query";
import type { ActiveProvider } from "@shared/providers";

/** GET /api/admin/providers/active: approved providers with their current task. */
export const activeProvidersQueryKey = ["/api/admin/providers/active"] as const;

export function useActiveProviders(enabled: boolean) {
  return useQuery<ActiveProvider[]>({ queryKey: activeProvidersQueryKey, enabled });
}
