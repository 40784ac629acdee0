import { useQuery } from "@tanstack/react-query";
import type { TaskPrivate } from "@shared/tasks";

/** GET /api/tasks/my-jobs: tasks the signed-in provider claimed. */
export const myJobsQueryKey = ["/api/tasks/my-jobs"] as const;

export function useMyJobs(enabled: boolean) {
  return useQuery<TaskPrivate[]>({ queryKey: myJobsQueryKey, enabled });
}
