import { useMutation } from "@tanstack/react-query";
import type { SandboxConfirmBody } from "@shared/payments";
import { apiRequest } from "@/lib/api";

/** POST /api/sandbox/payments/confirm: charges the sandbox card; the caller refreshes the task. */
export function useConfirmSandboxPayment() {
  return useMutation({
    mutationFn: (input: SandboxConfirmBody) => apiRequest<{ status: "succeeded" }>("POST", "/api/sandbox/payments/confirm", input),
  });
}
