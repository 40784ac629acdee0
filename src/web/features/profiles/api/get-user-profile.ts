import { useQuery } from "@tanstack/react-query";
import type { UserProfile } from "@shared/profiles";
import { apiRequest } from "@/lib/api";

/** GET /api/users/{id}/profile: what anyone may see of a person (docs/product.md, "People you can see"). */
export function userProfileQueryKey(id: string) {
  return ["/api/users", id, "profile"] as const;
}

export function useUserProfile(id: string) {
  return useQuery({
    queryKey: userProfileQueryKey(id),
    queryFn: () => apiRequest<UserProfile>("GET", `/api/users/${encodeURIComponent(id)}/profile`),
  });
}
