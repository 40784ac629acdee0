import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AnswerQuestionBody, AskQuestionBody, TaskQuestion } from "@shared/questions";
import { apiRequest } from "@/lib/api";
import { questionsQueryKey } from "./get-questions";

// The writes of the task page's questions; each reads the list again afterwards, also after a
// refusal (our copy is then out of date).

const base = (taskId: string) => `/api/tasks/${encodeURIComponent(taskId)}/questions`;

/** POST /api/tasks/{id}/questions: a verified provider's question. */
export function useAskQuestion(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AskQuestionBody) => apiRequest<TaskQuestion>("POST", base(taskId), body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: questionsQueryKey(taskId) }),
  });
}

/** POST /api/tasks/{id}/questions/{questionId}/answer: the poster's one answer. */
export function useAnswerQuestion(taskId: string, questionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AnswerQuestionBody) => apiRequest<TaskQuestion>("POST", `${base(taskId)}/${encodeURIComponent(questionId)}/answer`, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: questionsQueryKey(taskId) }),
  });
}

/** POST /api/tasks/{id}/questions/{questionId}/hide or /unhide: the poster or an admin. */
export function useHideQuestion(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ questionId, hide }: { questionId: string; hide: boolean }) =>
      apiRequest<TaskQuestion>("POST", `${base(taskId)}/${encodeURIComponent(questionId)}/${hide ? "hide" : "unhide"}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: questionsQueryKey(taskId) }),
  });
}
