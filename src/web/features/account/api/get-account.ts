import { useQuery } from "@tanstack/react-query";
import type { Account } from "@shared/account";
import { apiRequest } from "@/lib/api";

/** GET /api/account: the caller's name, e-mail, photo (and one waiting for approval) and whether they have a password. */
export const accountQueryKey = ["/api/account"] as const;

export function useAccount() {
  return useQuery({ queryKey: accountQueryKey, queryFn: () => apiRequest<Account>("GET", "/api/account") });
}
