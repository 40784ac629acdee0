import type { TaskDetail } from "@shared/tasks";

// Placeholder until its feature lands; the props are the agreed interface.
/** Rate button and dialog on completed tasks, and the reviews both sides may see. */
export function TaskReviews(_props: { task: TaskDetail }) {
  return null;
}
