import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProfilePatchInput, ProviderProfile } from "@shared/providers";
import { apiRequest } from "@/lib/api";
import { providerProfileQueryKey } from "./get-provider-profile";
import { providersQueryKey } from "./get-providers";

/** PATCH /api/provider/profile */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: ProfilePatchInput) => apiRequest<ProviderProfile>("PATCH", "/api/provider/profile", patch),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: providerProfileQueryKey });
      await queryClient.invalidateQueries({ queryKey: providersQueryKey });
    },
  });
}
