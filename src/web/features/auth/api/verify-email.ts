import { useMutation } from "@tanstack/react-query";
import type { VerifiedEmailResponse, VerifyEmailBody } from "@shared/auth";
import { apiRequest } from "@/lib/api";

/**
 * POST /api/auth/verify-email: the sign-up link or the new-address link; signs in on this device and
 * answers where to go next. Opened away from the browser that signed up, it asks for a password first.
 */
export function useVerifyEmail() {
  return useMutation({
    mutationFn: (body: VerifyEmailBody) => apiRequest<VerifiedEmailResponse>("POST", "/api/auth/verify-email", body),
  });
}
