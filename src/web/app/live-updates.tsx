import { useEffect, useRef } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useRoute } from "wouter";
import type { ClientFrame } from "@shared/chat";
import { notificationCountPushed, refreshNotifications } from "@/features/notifications/api/notification-push";
import { receiptsQueryKey } from "@/features/payments/api/get-receipts";
import { payoutHistoryQueryKey } from "@/features/payments/api/get-statements";
import { taskEscrowQueryKey } from "@/features/payments/api/get-task-escrow";
import { taskReviewsBaseKey, taskReviewsQueryKey } from "@/features/reviews/api/get-task-reviews";
import { jobBoardChanged, refreshTasks, taskUpdated } from "@/features/tasks/api/live-task-updates";
import { userQueryKey } from "@/lib/current-user";
import { connectRealtime } from "@/lib/realtime";

// The signed-in user's one live connection (docs/product.md, Live updates): it subscribes to the
// bell's count and hears every change of their tasks and of the job board, and turns each frame
// into refetches of what is on screen. Here, where features meet, because one frame concerns
// several features' caches (docs/decisions/025-live-task-status.md).

/**
 * Caches outside the tasks feature (those are taskUpdated's and refreshTasks') that a change of a
 * task may leave stale: its reviews, and the receipts and statements a payment, tip or refund wrote.
 * The escrow is under the task's own key. With no task named: every task's.
 */
function otherTaskCaches(taskId: string | null) {
  return [taskId === null ? taskReviewsBaseKey : taskReviewsQueryKey(taskId), receiptsQueryKey, payoutHistoryQueryKey];
}

function LiveUpdates() {
  const queryClient = useQueryClient();
  // The task page on screen, whoever's task it is: its public changes (status, questions, photos,
  // edits) come live to anyone reading it, as its parties' do.
  const [, taskPage] = useRoute("/task/:id");
  const [, tasksPage] = useRoute("/tasks/:id");
  const watching = (taskPage ?? tasksPage)?.id ?? null;
  const watchingRef = useRef(watching);
  const sendRef = useRef<((frame: ClientFrame) => void) | null>(null);
  useEffect(() => {
    if (watchingRef.current === watching) return;
    watchingRef.current = watching;
    sendRef.current?.({ type: "watch_task", taskId: watching });
  }, [watching]);
  useEffect(() => {
    let reconnect = false;
    let awaitingSubscription = false;
    return connectRealtime({
      onOpen: (send) => {
        sendRef.current = send;
        if (watchingRef.current) send({ type: "watch_task", taskId: watchingRef.current });
        send({ type: "subscribe_notifications" });
        awaitingSubscription = true;
      },
      onFrame: (frame) => {
        if (frame.type === "notification") {
          notificationCountPushed(queryClient, frame.unreadCount);
          // The first count answers the subscription: from here on every change is pushed, but a
          // change between a query's fetch and this moment was not (the page loads faster than the
          // socket opens, and a reconnect missed the gap), so what was fetched before refetches.
          if (awaitingSubscription) {
            awaitingSubscription = false;
            const subscribedAt = Date.now();
            refreshTasks(queryClient, subscribedAt);
            if (reconnect) {
              // The socket was down (its instance died or restarted, docs/deploy.md): which tasks
              // changed meanwhile is unknown, so whatever a task_updated frame refreshes is
              // refreshed for every task, as the bell is.
              for (const queryKey of [...otherTaskCaches(null), userQueryKey]) {
                void queryClient.invalidateQueries({ queryKey, predicate: (query) => query.state.dataUpdatedAt < subscribedAt });
              }
              refreshNotifications(queryClient);
            }
            reconnect = true;
          }
        } else if (frame.type === "task_updated") {
          taskUpdated(queryClient, frame.taskId);
          void queryClient.invalidateQueries({ queryKey: taskEscrowQueryKey(frame.taskId) });
          for (const queryKey of otherTaskCaches(frame.taskId)) void queryClient.invalidateQueries({ queryKey });
        } else if (frame.type === "job_board_changed") jobBoardChanged(queryClient, frame);
      },
      // Signed out here or elsewhere: the header learns it and this connection goes with it.
      onSessionEnded: () => void queryClient.invalidateQueries({ queryKey: userQueryKey }),
    });
  }, [queryClient]);
  return null;
}

export default LiveUpdates;
