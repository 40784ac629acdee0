import { useMutation } from "@tanstack/react-query";
import type { ResetPasswordBody, User } from "@shared/auth";
import type { SecondFactorNeeded } from "@shared/security";
import { apiRequest } from "@/lib/api";

/**
 * POST /api/auth/reset-password: sets the password, ends every other session, signs in here; an
 * account with a second factor is asked for it first (202), on the second step's page.
 */
export function useResetPassword() {
  return useMutation({
    mutationFn: async (body: ResetPasswordBody) => {
      const answer = await apiRequest<User | SecondFactorNeeded>("POST", "/api/auth/reset-password", body);
      if (!("secondFactor" in answer)) return answer;
      window.location.assign("/sign-in/second-step?returnTo=%2Fdashboard");
      return null;
    },
  });
}
