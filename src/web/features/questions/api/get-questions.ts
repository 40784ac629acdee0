import { useQuery } from "@tanstack/react-query";
import type { TaskQuestionList } from "@shared/questions";

/**
 * GET /api/tasks/{id}/questions: the task's public questions. Under the task's key, so the live
 * task frame (sent for every new question, answer and hide) refreshes them with the task.
 */
export function questionsQueryKey(taskId: string) {
  return ["/api/tasks", taskId, "questions"] as const;
}

export function useQuestions(taskId: string) {
  return useQuery<TaskQuestionList>({ queryKey: questionsQueryKey(taskId) });
}
