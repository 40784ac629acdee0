import { useQuery } from "@tanstack/react-query";
import type { TaskPrivate } from "@shared/tasks";

/** GET /api/tasks/my-tasks: tasks the signed-in user posted. */
export const myTasksQueryKey = ["/api/tasks/my-tasks"] as const;

export function useMyTasks(enabled: boolean) {
  return useQuery<TaskPrivate[]>({ queryKey: myTasksQueryKey, enabled });
}
