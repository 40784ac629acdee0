import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AccountPhoto } from "@shared/account";
import { apiRequest } from "@/lib/api";
import { userQueryKey } from "@/lib/current-user";
import { accountQueryKey } from "./get-account";

/** PUT /api/account/photo with an uploaded file's objectPath; DELETE removes the photo. */
export function usePhoto() {
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: accountQueryKey });
    void queryClient.invalidateQueries({ queryKey: userQueryKey });
  };
  const set = useMutation({
    mutationFn: (photoURL: string) => apiRequest<AccountPhoto>("PUT", "/api/account/photo", { photoURL }),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: () => apiRequest<AccountPhoto>("DELETE", "/api/account/photo"), onSuccess: refresh });
  return { set, remove };
}
