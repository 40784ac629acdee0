import { Zap } from "lucide-react";
import { categoryLabel, type TaskStatus, type Urgency } from "@shared/constants";
import { Badge } from "@/components/ui/badge";
import { statusBadgeVariant, statusLabel } from "./task-format";

export function TaskStatusBadge({ status }: { status: TaskStatus }) {
  return <Badge variant={statusBadgeVariant(status)}>{statusLabel(status)}</Badge>;
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
