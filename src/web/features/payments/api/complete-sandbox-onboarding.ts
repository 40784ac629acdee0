import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api";
import { earningsQueryKey } from "./get-earnings";
import { payoutStatusQueryKey } from "./get-payout-status";

/** POST /api/sandbox/payouts/complete-onboarding: the sandbox's stand-in for Stripe's hosted onboarding. */
export function useCompleteSandboxOnboarding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest("POST", "/api/sandbox/payouts/complete-onboarding"),
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: payoutStatusQueryKey }),
        queryClient.invalidateQueries({ queryKey: earningsQueryKey }),
      ]);
    },
  });
}
