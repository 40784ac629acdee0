import type { TaskDetail } from "@shared/tasks";

// Placeholder until its feature lands; the props are the agreed interface.
/** The card form inside the Payment Required card (poster, claimed, unpaid). */
export function TaskPaymentForm(_props: { task: TaskDetail }) {
  return null;
}
