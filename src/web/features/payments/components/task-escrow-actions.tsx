import type { TaskDetail } from "@shared/tasks";

// Placeholder until its feature lands; the props are the agreed interface.
/** After completion: approve release, report a problem, tip (poster); held/released status (both). */
export function TaskEscrowActions(_props: { task: TaskDetail }) {
  return null;
}
