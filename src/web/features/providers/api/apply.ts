import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ApplicationInput, ProviderProfile } from "@shared/providers";
import { apiRequest } from "@/lib/api";
import { providerProfileQueryKey } from "./get-provider-profile";

/** POST /api/provider/apply */
export function useApply() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApplicationInput) => apiRequest<ProviderProfile>("POST", "/api/provider/apply", body),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: providerProfileQueryKey });
      // The current user (its role) is the auth feature's query; refreshed by its path.
      await queryClient.invalidateQueries({ queryKey: ["/api/auth/user"] });
    },
  });
}
