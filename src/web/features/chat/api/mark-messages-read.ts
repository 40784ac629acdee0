import type { QueryClient } from "@tanstack/react-query";
import type { Message } from "@shared/chat";
import { apiRequest } from "@/lib/api";
import { messagesQueryKey } from "./get-messages";

/** PATCH /api/messages/{taskId}/read for the messages the reader has on screen. */
export async function markMessagesRead(queryClient: QueryClient, taskId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await apiRequest("PATCH", `/api/messages/${encodeURIComponent(taskId)}/read`, { ids });
  const seen = new Set(ids);
  queryClient.setQueryData<Message[]>(messagesQueryKey(taskId), (list) =>
    list?.map((m) => (seen.has(m.id) ? { ...m, read: true } : m)),
  );
}
