import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SystemActor, TaskTransition } from "@shared/task-lifecycle";
import type { TaskPrivate } from "@shared/tasks";
import { userQueryKey } from "@/lib/current-user";
import { apiRequest } from "@/lib/api";
import { declinedTasksQueryKey } from "./get-declined-tasks";
import { openTasksBaseKey } from "./get-open-tasks";
import { myJobsQueryKey } from "./get-my-jobs";
import { myTasksQueryKey } from "./get-my-tasks";
import { tasksBaseKey } from "./get-task";

/**
 * The actors with no task buttons: the timer and the payment system act on the server alone, and an
 * admin through the admin's own screens (the reports queue, the dispute panel).
 */
export const NO_BUTTON_ACTORS = ["timer", "payment_system", "admin"] as const satisfies readonly (SystemActor | "admin")[];

/** Person-driven rows with a route and button of their own: accepting names the offer (the offers feature); a task's time (the calendar feature). */
export const OWN_BUTTONS = [
  "accept_offer",
  // A task's time (docs/decisions/074-time-and-turning-up.md): the calendar feature's card on the
  // task page carries these, with the time or position some of them send.
  "propose_time",
  "accept_time",
  "decline_time",
  "on_my_way",
  "report_no_show",
] as const satisfies readonly TaskTransition["name"][];

/**
 * The transitions of src/shared/task-lifecycle.ts that a person performs, each a PATCH
 * /api/tasks/{id}/{name}. Derived from the table, so a new person-driven row is a type error
 * wherever its button copy is missing.
 */
export type TaskAction = Exclude<
  Extract<TaskTransition, { actor: Exclude<TaskTransition["actor"], (typeof NO_BUTTON_ACTORS)[number]> }>["name"],
  (typeof OWN_BUTTONS)[number]
>;

/** The route of each action: its name, except where the API spells it out (decline → decline-provider). */
export const TASK_ACTION_PATH: Record<TaskAction, string> = {
  claim: "claim",
  start: "start",
  complete: "complete",
  cancel: "cancel",
  reactivate: "reactivate",
  decline: "decline-provider",
  withdraw: "withdraw",
  release_claim: "release-claim",
  accept_request: "accept-request",
  // The poster's choice picks the row; the route finds it (docs/decisions/065-requesting-a-provider.md).
  decline_request: "decline-request",
  decline_request_cancel: "decline-request",
  // The poster's one Cancel: the route takes this row while the request waits.
  cancel_request: "cancel",
};

export interface TaskActionInput {
  id: string;
  action: TaskAction;
  /** Declining a request: the optional reason the poster reads (declineRequestBodySchema). */
  reason?: string | undefined;
}

/** After a claim or an update the related task and user caches are refreshed (docs/product.md#web-app). */
export function useTaskAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, reason }: TaskActionInput) =>
      // Declining a request takes a body (its optional reason).
      apiRequest<TaskPrivate>("PATCH", `/api/tasks/${encodeURIComponent(id)}/${TASK_ACTION_PATH[action]}`, action.startsWith("decline_request") ? { reason } : undefined),
    onSettled: async () => {
      // Also after a refusal: a 409 means our copy of the task is out of date.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: tasksBaseKey }),
        queryClient.invalidateQueries({ queryKey: openTasksBaseKey }),
        queryClient.invalidateQueries({ queryKey: myTasksQueryKey }),
        queryClient.invalidateQueries({ queryKey: myJobsQueryKey }),
        queryClient.invalidateQueries({ queryKey: declinedTasksQueryKey }),
        queryClient.invalidateQueries({ queryKey: userQueryKey }),
      ]);
    },
  });
}
