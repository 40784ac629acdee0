import type { PageDataRequest, SeededQuery } from "@shared/page-data";
import { matchRoute } from "@shared/page-head";
import { openTasksQueryKey, openTasksSearch } from "@/features/tasks/api/get-open-tasks";
import { boardPageParams, boardView } from "@/features/tasks/components/board-filters";
import { taskQueryKey } from "@/features/tasks/api/get-task";
import { questionsQueryKey } from "@/features/questions/api/get-questions";

// The pages the server renders per request with their data (docs/decisions/036-server-rendered-data-pages.md):
// what each needs from the server, and under which query key the page finds it. Both come from the
// page's own functions (its address parsing, its query keys), so the server's answer is exactly the
// one the page would have asked for, and hydration finds it without a request.

/** The data the page at `path?search` shows, or null for a page rendered in the browser only. */
export function pageDataRequest(path: string, search: string): PageDataRequest | null {
  const { route, params } = matchRoute(path);
  const query = new URLSearchParams(search);
  switch (route.pattern) {
    case "/job-board":
    case "/jobs":
      // The map asks for its own answers in the browser (decision 031); only the list is rendered here.
      return boardView(query) === "list" ? { kind: "board", query: openTasksSearch(boardPageParams(query), 1) } : null;
    case "/task/:id":
    case "/tasks/:id":
      return { kind: "task", id: params.id ?? "" };
    default:
      return null;
  }
}

/** The server's answer placed where the page's query looks for it: the board as its infinite list's first page. */
export function seededQueries(request: PageDataRequest, search: string, data: unknown): SeededQuery[] {
  if (request.kind === "task") {
    // The task and its public questions (src/server/features/questions/page-data.ts).
    const { task, questions } = data as { task: unknown; questions: unknown };
    return [
      { key: taskQueryKey(request.id), data: task },
      { key: questionsQueryKey(request.id), data: questions },
    ];
  }
  return [{ key: openTasksQueryKey(boardPageParams(new URLSearchParams(search))), data: { pages: [data], pageParams: [1] } }];
}
