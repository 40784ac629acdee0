import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AdminReport, CreateReportBody, ReportOutcome } from "@shared/moderation";
import { apiRequest } from "@/lib/api";

/** POST /api/reports: anyone signed in reports a user, task, message or review. */
export function useCreateReport() {
  return useMutation({ mutationFn: (body: CreateReportBody) => apiRequest<{ id: string }>("POST", "/api/reports", body) });
}

/** GET /api/admin/reports?status=: the admin's queue, the reported thing in context. */
const reportsQueryKey = (status: "open" | "closed") => [`/api/admin/reports?status=${status}`] as const;

export function useReports(status: "open" | "closed") {
  return useQuery<AdminReport[]>({ queryKey: reportsQueryKey(status) });
}

/** Everything an admin's moderation changes: both queues and the audit log. */
function useRefreshModeration() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: reportsQueryKey("open") }),
      queryClient.invalidateQueries({ queryKey: reportsQueryKey("closed") }),
      queryClient.invalidateQueries({ queryKey: ["/api/admin/audit-log"] }),
    ]);
}

export type ModerationAction =
  | { kind: "close"; reportId: string; outcome: ReportOutcome; note?: string }
  | { kind: "remove_task"; taskId: string; reason: string }
  | { kind: "hide_review" | "unhide_review"; reviewId: string; reason: string }
  | { kind: "suspend" | "unsuspend"; userId: string; reason: string }
  | { kind: "revoke"; userId: string; reason: string };

function request(action: ModerationAction): [string, unknown] {
  switch (action.kind) {
    case "close":
      return [`/api/admin/reports/${action.reportId}/close`, { outcome: action.outcome, ...(action.note ? { note: action.note } : {}) }];
    case "remove_task":
      return [`/api/admin/tasks/${action.taskId}/remove`, { reason: action.reason }];
    case "hide_review":
      return [`/api/admin/reviews/${action.reviewId}/hide`, { reason: action.reason }];
    case "unhide_review":
      return [`/api/admin/reviews/${action.reviewId}/unhide`, { reason: action.reason }];
    case "suspend":
      return [`/api/admin/users/${action.userId}/suspend`, { reason: action.reason }];
    case "unsuspend":
      return [`/api/admin/users/${action.userId}/unsuspend`, { reason: action.reason }];
    case "revoke":
      return [`/api/admin/providers/${action.userId}/revoke`, { reason: action.reason }];
  }
}

/** The admin's moderation actions (docs/product.md, Moderation); each refreshes the queue. */
export function useModerate() {
  const refresh = useRefreshModeration();
  return useMutation({
    mutationFn: (action: ModerationAction) => {
      const [url, body] = request(action);
      return apiRequest("POST", url, body);
    },
    onSettled: refresh,
  });
}
