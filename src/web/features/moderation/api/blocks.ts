import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { BlockedPerson } from "@shared/moderation";
import { apiRequest } from "@/lib/api";

/** GET /api/blocks: the people the signed-in person blocked. */
const blocksQueryKey = ["/api/blocks"] as const;

export function useBlocks(enabled = true) {
  return useQuery<BlockedPerson[]>({ queryKey: blocksQueryKey, enabled });
}

/** PUT or DELETE /api/blocks/{userId}. */
export function useSetBlocked() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, blocked }: { userId: string; blocked: boolean }) => apiRequest(blocked ? "PUT" : "DELETE", `/api/blocks/${userId}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: blocksQueryKey }),
  });
}
