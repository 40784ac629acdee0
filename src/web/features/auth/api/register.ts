import { useMutation } from "@tanstack/react-query";
import type { MessageResponse, RegisterBody } from "@shared/auth";
import { apiRequest } from "@/lib/api";

/** POST /api/auth/register: signs nobody in; the e-mailed link finishes signing up. */
export function useRegister() {
  return useMutation({
    mutationFn: (body: RegisterBody) => apiRequest<MessageResponse>("POST", "/api/auth/register", body),
  });
}
