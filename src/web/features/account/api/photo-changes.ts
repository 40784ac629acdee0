import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PendingPhoto } from "@shared/account";
import { apiRequest } from "@/lib/api";

/** GET /api/admin/photo-changes: approved providers' new photos waiting for an admin. */
export const photoChangesQueryKey = ["/api/admin/photo-changes"] as const;

export function usePhotoChanges(enabled: boolean) {
  return useQuery({ queryKey: photoChangesQueryKey, queryFn: () => apiRequest<PendingPhoto[]>("GET", "/api/admin/photo-changes"), enabled });
}

export type PhotoDecision = { userId: string; action: "approve" } | { userId: string; action: "reject"; reason: string };

/** POST /api/admin/photo-changes/:userId/approve or /reject {reason}. */
export function useDecidePhotoChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (d: PhotoDecision) =>
      apiRequest("POST", `/api/admin/photo-changes/${d.userId}/${d.action}`, d.action === "reject" ? { reason: d.reason } : undefined),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: photoChangesQueryKey }),
  });
}
