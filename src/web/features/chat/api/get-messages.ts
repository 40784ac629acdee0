import { useQuery } from "@tanstack/react-query";
import type { Message } from "@shared/chat";
import { apiRequest } from "@/lib/api";

/** GET /api/messages/{taskId}: the task's chat, oldest first. */
export function messagesQueryKey(taskId: string) {
  return ["/api/messages", taskId] as const;
}

export function useMessages(taskId: string) {
  return useQuery({
    queryKey: messagesQueryKey(taskId),
    queryFn: () => apiRequest<Message[]>("GET", `/api/messages/${encodeURIComponent(taskId)}`),
  });
}

/** Adds a message once: the POST answer and the socket echo of the same message are one. */
export function mergeMessage(list: readonly Message[], message: Message): Message[] {
  if (list.some((m) => m.id === message.id)) return [...list];
  const next = [...list, message];
  // Two instances may deliver in a different order than they stored: keep the stored order.
  next.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  return next;
}
