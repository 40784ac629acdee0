import { useMutation } from "@tanstack/react-query";
import type { OnMyWayBody, ProposeTimeBody } from "@shared/calendar";
import type { TaskPrivate } from "@shared/tasks";
import { apiRequest } from "@/lib/api";

// The task table's rows about time (docs/decisions/074-time-and-turning-up.md): a proposed new
// time and its answer, "on my way", and the poster's no-show report. Each answers with the task;
// the page that shows it refreshes its own copy (`onDone`).

const taskPath = (id: string, path: string) => `/api/tasks/${encodeURIComponent(id)}/${path}`;

export type TimeAnswer = "accept-time" | "decline-time" | "report-no-show";

export function useProposeTime(onDone: () => unknown) {
  return useMutation({
    mutationFn: ({ taskId, body }: { taskId: string; body: ProposeTimeBody }) => apiRequest<TaskPrivate>("POST", taskPath(taskId, "propose-time"), body),
    onSettled: onDone,
  });
}

export function useOnMyWay(onDone: () => unknown) {
  return useMutation({
    mutationFn: ({ taskId, body }: { taskId: string; body: OnMyWayBody }) => apiRequest<TaskPrivate>("POST", taskPath(taskId, "on-my-way"), body),
    onSettled: onDone,
  });
}

/** accept-time, decline-time and report-no-show: PATCH rows that carry nothing. */
export function useTimeAnswer(onDone: () => unknown) {
  return useMutation({
    mutationFn: ({ taskId, answer }: { taskId: string; answer: TimeAnswer }) => apiRequest<TaskPrivate>("PATCH", taskPath(taskId, answer)),
    onSettled: onDone,
  });
}
