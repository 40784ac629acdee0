import { useQuery } from "@tanstack/react-query";
import type { Message } from "@shared/chat";
import { apiRequest } from "@/lib/api";

/** GET /api/messages/{taskId}: the task's chat, oldest first. */
export function messagesQueryKey(taskId: string) {
  return ["/api/messages", taskId] as const;
}

export function useMessages(taskId: string, enabled: boolean) {
  return useQuery({
    queryKey: messagesQueryKey(taskId),
    queryFn: () => apiRequest<Message[]>("GET", `/api/messages/${encodeURIComponent(taskId)}`),
    enabled,
  });
}
