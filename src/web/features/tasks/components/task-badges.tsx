import { ShieldCheck, Zap } from "lucide-react";
import { categoryLabel, type TaskStatus, type Urgency } from "@shared/constants";
import type { StatementWords } from "@shared/statement-words";
import type { TaskSettlement } from "@shared/tasks";
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
 * Where the task's money stands for the reader, from the task's account (statementWords): "Paid ·
 * held in escrow", "Partly refunded", "Late-cancellation fee", "Another offer was chosen"... Only
 * the people whose money it is read one; nobody else gets a badge.
 */
export function TaskEscrowBadge({ badge }: { badge: StatementWords["badge"] | undefined }) {
  if (!badge) return null;
  return (
    <Badge variant={badge.tone} data-testid="account-badge">
      {badge.tone === "warning" && <ShieldCheck aria-hidden="true" />} {badge.label}
    </Badge>
  );
}
