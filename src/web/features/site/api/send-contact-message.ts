import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ContactBody } from "@shared/site";
import { apiRequest } from "@/lib/api";
import { contactMessagesBaseKey } from "./get-contact-messages";

/** POST /api/contact. */
export function useSendContactMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ContactBody) => apiRequest<{ ok: true; id: string }>("POST", "/api/contact", body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactMessagesBaseKey }),
  });
}
