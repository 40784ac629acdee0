import type { TaskDetail } from "@shared/tasks";

// Placeholder until its feature lands; the props are the agreed interface.
/** The chat card of spec §2 (500px, Task Messages, Connected/Offline). */
export function TaskChatPanel(_props: { task: TaskDetail }) {
  return null;
}
