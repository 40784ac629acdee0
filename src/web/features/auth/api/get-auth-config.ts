import { useQuery } from "@tanstack/react-query";

/** GET /api/auth/config: which sign-in methods the server offers besides local accounts. */
export interface AuthConfig {
  oidc: boolean;
}

export const authConfigQueryKey = ["/api/auth/config"] as const;

export function useAuthConfig() {
  return useQuery<AuthConfig>({ queryKey: authConfigQueryKey });
}
