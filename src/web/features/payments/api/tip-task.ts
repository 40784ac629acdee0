import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api";
import { taskEscrowQueryKey } from "./get-task-escrow";

export interface TipResult {
  status: "succeeded" | "requires_payment";
  clientSecret: string | null;
}

/** POST /api/tasks/{id}/tip {amount}: 100% to the provider. */
export function useTipTask(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (amount: number) => apiRequest<TipResult>("POST", `/api/tasks/${taskId}/tip`, { amount }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: taskEscrowQueryKey(taskId) }),
  });
}
