import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Category } from "@shared/constants";
import type { z } from "zod";
import type { createTaskBodySchema, CreateTaskBody, TaskPrivate } from "@shared/tasks";
import { userQueryKey } from "@/lib/current-user";
import { apiRequest } from "@/lib/api";
import { openTasksBaseKey } from "./get-open-tasks";
import { myTasksQueryKey } from "./get-my-tasks";

/** The POST /api/tasks body as the wizard builds it, before validation: the category may be unchosen. */
export type PostTaskBody = Omit<CreateTaskBody, "category"> & { category: Category | "" };

/** The body once createTaskBodySchema accepted it: what the wizard sends. */
export type ValidTaskBody = z.output<typeof createTaskBodySchema>;

/** POST /api/tasks. On success the open-tasks and my-tasks lists are refreshed (docs/product.md#web-app). */
export function useCreateTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ValidTaskBody) => apiRequest<TaskPrivate>("POST", "/api/tasks", body),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: openTasksBaseKey }),
        queryClient.invalidateQueries({ queryKey: myTasksQueryKey }),
        queryClient.invalidateQueries({ queryKey: userQueryKey }),
      ]);
    },
  });
}
