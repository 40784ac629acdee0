import { describe, expect, it } from "vitest";
import { openTasksQueryKey } from "@/features/tasks/api/get-open-tasks";
import { taskQueryKey } from "@/features/tasks/api/get-task";
import { questionsQueryKey } from "@/features/questions/api/get-questions";
import { pageDataRequest, seededQueries } from "./page-data";

// What each server-rendered page asks the server for, and where the answer goes in the query cache
// (docs/decisions/036-server-rendered-data-pages.md): exactly what the page itself would ask for.

describe("pageDataRequest", () => {
  it("asks for the board's first page with the query the page sends, whichever address shows it", () => {
    expect(pageDataRequest("/job-board", "")).toEqual({ kind: "board", query: "pageSize=30" });
    expect(pageDataRequest("/jobs", "category=pet&search=dog+walk&sort=budget_desc&utm_source=x")).toEqual({
      kind: "board",
      query: "search=dog+walk&category=pet&sort=budget_desc&pageSize=30",
    });
    expect(pageDataRequest("/job-board", "near=21401&radiusMiles=10&minBudget=20&when=today")).toEqual({
      kind: "board",
      query: "near=21401&radiusMiles=10&minBudget=20&when=today&pageSize=30",
    });
  });

  it("drops what the page itself would drop: unknown categories, bad numbers, distance without a place", () => {
    expect(pageDataRequest("/job-board", "category=dragons&minBudget=abc&sort=distance&radiusMiles=10")).toEqual({ kind: "board", query: "pageSize=30" });
  });

  it("leaves the map to the browser, and every page without data", () => {
    expect(pageDataRequest("/job-board", "view=map")).toBeNull();
    for (const path of ["/", "/pricing", "/providers", "/users/1", "/dashboard", "/no/such/page"]) expect(pageDataRequest(path, ""), path).toBeNull();
  });

  it("asks for a task by the id in its address", () => {
    expect(pageDataRequest("/task/abc", "")).toEqual({ kind: "task", id: "abc" });
    expect(pageDataRequest("/tasks/abc", "from=mail")).toEqual({ kind: "task", id: "abc" });
  });
});

describe("seededQueries", () => {
  it("puts the board's answer as the first page of the page's own query", () => {
    const answer = [{ id: "1" }];
    expect(seededQueries({ kind: "board", query: "category=pet&pageSize=30" }, "category=pet&x=1", answer)).toEqual([
      { key: openTasksQueryKey({ search: "", category: "pet", sort: "newest" }), data: { pages: [answer], pageParams: [1] } },
    ]);
  });

  it("puts a task and its public questions under their keys", () => {
    const questions = { questions: [{ id: "q" }] };
    expect(seededQueries({ kind: "task", id: "abc" }, "", { task: { id: "abc" }, questions })).toEqual([
      { key: taskQueryKey("abc"), data: { id: "abc" } },
      { key: questionsQueryKey("abc"), data: questions },
    ]);
  });
});
