import { ShieldCheck, Zap } from "lucide-react";
import { categoryLabel, type TaskStatus, type Urgency } from "@shared/constants";
import type { TaskPublic, TaskSettlement } from "@shared/tasks";
import { Badge } from "@/components/ui/badge";
import { statusBadgeVariant, statusLabel } from "./task-format";

/** The task's status, or for a task an admin's resolution ended, how its money was settled. */
export function TaskStatusBadge({ status, settlement = null }: { status: TaskStatus; settlement?: TaskSettlement | null }) {
  return <Badge variant={statusBadgeVariant(status, settlement)}>{statusLabel(status, settlement)}</Badge>;
}

export function TaskCategoryBadge({ category }: { category: string }) {
  return <Badge variant="outline">{categoryLabel(category)}</Badge>;
}

/** The urgent badge is highlighted; standard stays plain (docs/product.md#web-app). */
export function TaskUrgencyBadge({ urgency }: { urgency: Urgency }) {
  return urgency === "urgent" ? (
    <Badge variant="warning">
      <Zap aria-hidden="true" /> Urgent
    </Badge>
  ) : (
    <Badge variant="secondary">Standard</Badge>
  );
}

/**
 * "Paid · held in escrow" while the captured payment waits for the work (claimed or in progress);
 * after completion the task's payment card tells whether it is still held or released.
 */
export function TaskEscrowBadge({ task }: { task: Pick<TaskPublic, "status" | "paymentCapturedAt"> }) {
  if (task.paymentCapturedAt === null || (task.status !== "claimed" && task.status !== "in_progress")) return null;
  return (
    <Badge variant="success">
      <ShieldCheck aria-hidden="true" /> Paid · held in escrow
    </Badge>
  );
}
