import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SessionView } from "@shared/account";
import { apiRequest } from "@/lib/api";

/** GET /api/account/sessions: where the user is signed in, this browser marked. */
export const sessionsQueryKey = ["/api/account/sessions"] as const;

export function useSessions() {
  return useQuery({ queryKey: sessionsQueryKey, queryFn: () => apiRequest<SessionView[]>("GET", "/api/account/sessions") });
}

/** DELETE /api/account/sessions/:id and POST /api/account/sessions/sign-out-others. */
export function useEndSessions() {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: sessionsQueryKey });
  const endOne = useMutation({ mutationFn: (id: string) => apiRequest("DELETE", `/api/account/sessions/${id}`), onSuccess: refresh });
  const endOthers = useMutation({
    mutationFn: () => apiRequest<{ signedOut: number }>("POST", "/api/account/sessions/sign-out-others"),
    onSuccess: refresh,
  });
  return { endOne, endOthers };
}
