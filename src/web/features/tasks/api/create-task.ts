import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Category } from "@shared/constants";
import type { CreateTaskBody, TaskPrivate } from "@shared/tasks";
import { userQueryKey } from "@/lib/current-user";
import { apiRequest } from "@/lib/api";
import { openTasksBaseKey } from "./get-open-tasks";
import { myTasksQueryKey } from "./get-my-tasks";

/**
 * The POST /api/tasks body. Spec §5 puts no blocking check on the category, so it may still be
 * empty; the server then refuses with a message naming the field, shown in the error toast.
 */
export type PostTaskBody = Omit<CreateTaskBody, "category"> & { category: Category | "" };

/** POST /api/tasks. Spec §4: on success the open-tasks and my-tasks lists are refreshed. */
export function useCreateTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PostTaskBody) => apiRequest<TaskPrivate>("POST", "/api/tasks", body),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: openTasksBaseKey }),
        queryClient.invalidateQueries({ queryKey: myTasksQueryKey }),
        queryClient.invalidateQueries({ queryKey: userQueryKey }),
      ]);
    },
  });
}
