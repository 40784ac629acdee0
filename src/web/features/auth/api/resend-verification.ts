import { useMutation } from "@tanstack/react-query";
import type { MessageResponse } from "@shared/auth";
import { apiRequest } from "@/lib/api";

/** POST /api/auth/resend-verification: a new link to the signed-in person's address (rate limited). */
export function useResendVerification() {
  return useMutation({
    mutationFn: () => apiRequest<MessageResponse>("POST", "/api/auth/resend-verification"),
  });
}
