import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Account, ProfileBody } from "@shared/account";
import { apiRequest } from "@/lib/api";
import { userQueryKey } from "@/lib/current-user";
import { accountQueryKey } from "./get-account";

/** PATCH /api/account/profile: first and last name. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProfileBody) => apiRequest<Account>("PATCH", "/api/account/profile", body),
    onSuccess: (account) => {
      queryClient.setQueryData(accountQueryKey, account);
      void queryClient.invalidateQueries({ queryKey: userQueryKey });
    },
  });
}
