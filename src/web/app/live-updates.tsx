import { useEffect } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { notificationCountPushed, refreshNotifications } from "@/features/notifications/api/notification-push";
import { taskEscrowQueryKey } from "@/features/payments/api/get-task-escrow";
import { taskReviewsQueryKey } from "@/features/reviews/api/get-task-reviews";
import { jobBoardChanged, refreshTasks, taskUpdated } from "@/features/tasks/api/live-task-updates";
import { connectRealtime } from "@/lib/realtime";

// The signed-in user's one live connection (docs/product.md, Live updates): it subscribes to the
// bell's count and hears every change of their tasks and of the job board, and turns each frame
// into refetches of what is on screen. Here, where features meet, because one frame concerns
// several features' caches (docs/decisions/025-live-task-status.md).

export function LiveUpdates() {
  const queryClient = useQueryClient();
  useEffect(() => {
    let reconnect = false;
    return connectRealtime({
      onOpen: (send) => {
        send({ type: "subscribe_notifications" });
        // The first connect follows the page's own fetches; later ones catch up on what was missed.
        if (reconnect) {
          refreshNotifications(queryClient);
          refreshTasks(queryClient);
        }
        reconnect = true;
      },
      onFrame: (frame) => {
        if (frame.type === "notification") notificationCountPushed(queryClient, frame.unreadCount);
        else if (frame.type === "task_updated") {
          taskUpdated(queryClient, frame.taskId);
          void queryClient.invalidateQueries({ queryKey: taskEscrowQueryKey(frame.taskId) });
          void queryClient.invalidateQueries({ queryKey: taskReviewsQueryKey(frame.taskId) });
        } else if (frame.type === "job_board_changed") jobBoardChanged(queryClient, frame);
      },
    });
  }, [queryClient]);
  return null;
}

export default LiveUpdates;
