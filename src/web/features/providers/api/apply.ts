import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ApplicationInput, ProviderProfile } from "@shared/providers";
import { apiRequest } from "@/lib/api";
import { userQueryKey } from "@/lib/current-user";
import { providerProfileQueryKey } from "./get-provider-profile";

/** POST /api/provider/apply */
export function useApply() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApplicationInput) => apiRequest<ProviderProfile>("POST", "/api/provider/apply", body),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: providerProfileQueryKey });
      // Applying changes the current user's role.
      await queryClient.invalidateQueries({ queryKey: userQueryKey });
    },
  });
}
