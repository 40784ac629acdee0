import { useMutation } from "@tanstack/react-query";
import type { ChangeEmailBody, MessageResponse } from "@shared/auth";
import { apiRequest } from "@/lib/api";

/** POST /api/auth/change-email: a link to the new address; the old one is told. */
export function useChangeEmail() {
  return useMutation({
    mutationFn: (body: ChangeEmailBody) => apiRequest<MessageResponse>("POST", "/api/auth/change-email", body),
  });
}
