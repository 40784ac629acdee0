import { useMutation } from "@tanstack/react-query";
import type { User, VerifyEmailBody } from "@shared/auth";
import { apiRequest } from "@/lib/api";

/** POST /api/auth/verify-email: the sign-up link or the new-address link; signs in on this device. */
export function useVerifyEmail() {
  return useMutation({
    mutationFn: (body: VerifyEmailBody) => apiRequest<User>("POST", "/api/auth/verify-email", body),
  });
}
