import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Message, SendMessageBody } from "@shared/chat";
import { apiRequest } from "@/lib/api";
import { mergeMessage, messagesQueryKey } from "./get-messages";

/** POST /api/messages: the answer is appended at once; the socket echo of it is then a no-op. */
export function useSendMessage(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (content: string) => apiRequest<Message>("POST", "/api/messages", { taskId, content } satisfies SendMessageBody),
    onSuccess: (message) => {
      queryClient.setQueryData<Message[]>(messagesQueryKey(taskId), (list) => mergeMessage(list ?? [], message));
    },
  });
}
