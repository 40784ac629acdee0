import { useQuery } from "@tanstack/react-query";
import type { User } from "@shared/auth";
import { getQueryFn } from "@/lib/api";
import { useHydrating } from "@/lib/hydration";

// Every feature asks who is signed in, so the question lives here at the bottom layer and not in
// the auth feature: a feature never imports another one (docs/architecture.md).

export const userQueryKey = ["/api/auth/user"] as const;

/** Signed-in status is whether the current-user call returns data (docs/product.md#web-app). */
export function useUser() {
  const query = useQuery<User | null>({
    queryKey: userQueryKey,
    queryFn: getQueryFn({ on401: "returnNull" }),
    retry: false,
  });
  // While a prerendered page hydrates, still loading, as the build rendered it (lib/hydration.ts).
  const hydrating = useHydrating();
  if (hydrating) return { user: null, isLoading: true, isAuthenticated: false };
  return {
    user: query.data ?? null,
    isLoading: query.isLoading,
    isAuthenticated: Boolean(query.data),
  };
}
