import { startRegistration } from "@simplewebauthn/browser";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SecurityEventView, SecurityOverview, TotpSetup } from "@shared/security";
import { apiRequest } from "@/lib/api";
import { userQueryKey } from "@/lib/current-user";

// One's own second factors and security log (docs/product.md, "Account security").

/** GET /api/account/security: the app, the passkeys, how many recovery codes are left. */
export const securityQueryKey = ["/api/account/security"] as const;
export function useSecurityOverview(enabled = true) {
  return useQuery({ queryKey: securityQueryKey, queryFn: () => apiRequest<SecurityOverview>("GET", "/api/account/security"), enabled });
}

/** GET /api/account/security/events: recent security activity. */
export const securityEventsQueryKey = ["/api/account/security/events"] as const;
export function useSecurityEvents() {
  // Fetched afresh each time the card shows: the log grows from other pages (payout details), other
  // devices (sign-ins) and the link in the inbox (an address change), none of which touch this cache.
  return useQuery({ queryKey: securityEventsQueryKey, queryFn: () => apiRequest<SecurityEventView[]>("GET", "/api/account/security/events"), staleTime: 0 });
}

type RegistrationOptions = Parameters<typeof startRegistration>[0]["optionsJSON"];

/**
 * Every change of factors: each refreshes the overview and the log, and who is signed in: adding a
 * factor upgrades this session, which opens an admin's powers (docs/decisions/068-admin-powers-need-two-factors.md).
 */
export function useSecurityChanges() {
  const queryClient = useQueryClient();
  const onSuccess = () => {
    void queryClient.invalidateQueries({ queryKey: securityQueryKey });
    void queryClient.invalidateQueries({ queryKey: securityEventsQueryKey });
    void queryClient.invalidateQueries({ queryKey: userQueryKey });
  };
  return {
    startTotp: useMutation({ mutationFn: () => apiRequest<TotpSetup>("POST", "/api/account/security/totp") }),
    confirmTotp: useMutation({
      mutationFn: (code: string) => apiRequest<{ recoveryCodes: string[] | null }>("POST", "/api/account/security/totp/confirm", { code }),
      onSuccess,
    }),
    removeTotp: useMutation({ mutationFn: () => apiRequest("DELETE", "/api/account/security/totp"), onSuccess }),
    newRecoveryCodes: useMutation({ mutationFn: () => apiRequest<{ recoveryCodes: string[] }>("POST", "/api/account/security/recovery-codes"), onSuccess }),
    addPasskey: useMutation({
      mutationFn: async (name: string) => {
        const optionsJSON = await apiRequest<RegistrationOptions>("POST", "/api/account/security/passkeys/options");
        const response = await startRegistration({ optionsJSON });
        return apiRequest<{ recoveryCodes: string[] | null }>("POST", "/api/account/security/passkeys", { name, response });
      },
      onSuccess,
    }),
    renamePasskey: useMutation({
      mutationFn: ({ id, name }: { id: string; name: string }) => apiRequest("PATCH", `/api/account/security/passkeys/${id}`, { name }),
      onSuccess,
    }),
    removePasskey: useMutation({ mutationFn: (id: string) => apiRequest("DELETE", `/api/account/security/passkeys/${id}`), onSuccess }),
  };
}
