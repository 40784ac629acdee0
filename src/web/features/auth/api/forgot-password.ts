import { useMutation } from "@tanstack/react-query";
import type { ForgotPasswordBody, MessageResponse } from "@shared/auth";
import { apiRequest } from "@/lib/api";

/** POST /api/auth/forgot-password: the same answer whether or not the address has an account. */
export function useForgotPassword() {
  return useMutation({
    mutationFn: (body: ForgotPasswordBody) => apiRequest<MessageResponse>("POST", "/api/auth/forgot-password", body),
  });
}
