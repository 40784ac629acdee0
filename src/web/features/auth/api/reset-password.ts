import { useMutation } from "@tanstack/react-query";
import type { ResetPasswordBody, User } from "@shared/auth";
import { apiRequest } from "@/lib/api";

/** POST /api/auth/reset-password: sets the password, ends every other session, signs in here. */
export function useResetPassword() {
  return useMutation({
    mutationFn: (body: ResetPasswordBody) => apiRequest<User>("POST", "/api/auth/reset-password", body),
  });
}
