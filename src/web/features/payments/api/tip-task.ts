import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { TipBody, TipResult } from "@shared/payments";
import { apiRequest } from "@/lib/api";
import { taskEscrowQueryKey } from "./get-task-escrow";

/** POST /api/tasks/{id}/tip {amount, idempotencyKey}: 100% to the provider; a repeat with the same key charges once. */
export function useTipTask(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TipBody) => apiRequest<TipResult>("POST", `/api/tasks/${taskId}/tip`, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: taskEscrowQueryKey(taskId) }),
  });
}
