import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api";

/** POST /api/auth/reset-password/check: whether the e-mailed reset link still works; it uses nothing. */
export function checkResetLinkQuery(token: string) {
  return queryOptions({
    queryKey: ["auth", "reset-link", token],
    queryFn: () => apiRequest<{ ok: true }>("POST", "/api/auth/reset-password/check", { token }),
    retry: false,
    staleTime: Infinity,
  });
}

export function useCheckResetLink(token: string | null) {
  return useQuery({ ...checkResetLinkQuery(token ?? ""), enabled: token !== null });
}
