import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { editTaskBodySchema, TaskPrivate } from "@shared/tasks";
import { apiRequest } from "@/lib/api";
import { openTasksBaseKey } from "./get-open-tasks";
import { myTasksQueryKey } from "./get-my-tasks";
import { tasksBaseKey } from "./get-task";

/** The body once editTaskBodySchema accepted it: what the edit form sends. */
export type ValidEditTaskBody = z.output<typeof editTaskBodySchema>;

/** PATCH /api/tasks/{id} (docs/decisions/058-withdrawing-and-editing.md); the task, the board and my tasks refresh. */
export function useEditTask(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ValidEditTaskBody) => apiRequest<TaskPrivate>("PATCH", `/api/tasks/${encodeURIComponent(id)}`, body),
    // Also after a refusal: a 409 means the task was claimed meanwhile.
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: tasksBaseKey }),
        queryClient.invalidateQueries({ queryKey: openTasksBaseKey }),
        queryClient.invalidateQueries({ queryKey: myTasksQueryKey }),
      ]);
    },
  });
}
