import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ChangePasswordBody } from "@shared/account";
import { apiRequest } from "@/lib/api";
import { sessionsQueryKey } from "./get-sessions";

/** POST /api/account/password: every other session of the user ends. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangePasswordBody) => apiRequest<{ signedOut: number }>("POST", "/api/account/password", body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: sessionsQueryKey });
      // The change shows under Recent security activity on the same page (the auth feature's query).
      void queryClient.invalidateQueries({ queryKey: ["/api/account/security/events"] });
    },
  });
}
