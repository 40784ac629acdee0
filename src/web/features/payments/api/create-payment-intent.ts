import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api";

/** POST /api/create-payment-intent {amount, taskId}: the client secret of the task's one payment. */
export function useCreatePaymentIntent() {
  return useMutation({
    mutationFn: (input: { amount: number; taskId: string }) =>
      apiRequest<{ clientSecret: string }>("POST", "/api/create-payment-intent", input),
  });
}
