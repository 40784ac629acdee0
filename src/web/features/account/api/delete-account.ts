import { useMutation } from "@tanstack/react-query";
import type { DeleteAccountBody } from "@shared/account";
import { apiRequest } from "@/lib/api";

/** DELETE /api/account: the server signs the browser out; the caller then leaves for the goodbye page. */
export function useDeleteAccount() {
  return useMutation({ mutationFn: (body: DeleteAccountBody) => apiRequest("DELETE", "/api/account", body) });
}
