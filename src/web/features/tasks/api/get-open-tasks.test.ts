import { describe, expect, it } from "vitest";
import type { TaskPublic } from "@shared/tasks";
import { OPEN_TASKS_PAGE_SIZE, openTasksUrl, uniqueTasks } from "./get-open-tasks";

describe("open tasks query", () => {
  it("puts only the set parameters in the URL", () => {
    expect(openTasksUrl({ search: "  ", sort: "newest" }, 1)).toBe(`/api/tasks/open?pageSize=${OPEN_TASKS_PAGE_SIZE}`);
    expect(openTasksUrl({ search: " cake & co ", category: "delivery", sort: "budget_desc" }, 2)).toBe(
      `/api/tasks/open?search=cake+%26+co&category=delivery&sort=budget_desc&page=2&pageSize=${OPEN_TASKS_PAGE_SIZE}`,
    );
  });

  it("carries the filters, and a radius only with a place", () => {
    expect(openTasksUrl({ near: "21401", radiusMiles: 10, minBudget: 20, maxBudget: 80.5, when: "this_week", sort: "distance" }, 1)).toBe(
      `/api/tasks/open?near=21401&radiusMiles=10&minBudget=20&maxBudget=80.5&when=this_week&sort=distance&pageSize=${OPEN_TASKS_PAGE_SIZE}`,
    );
    expect(openTasksUrl({ radiusMiles: 10, minBudget: 0 }, 1)).toBe(`/api/tasks/open?minBudget=0&pageSize=${OPEN_TASKS_PAGE_SIZE}`);
  });

  it("keeps each task once across pages", () => {
    const task = (id: string) => ({ id }) as TaskPublic;
    expect(uniqueTasks([[task("a"), task("b")], [task("b"), task("c")]]).map((t) => t.id)).toEqual(["a", "b", "c"]);
  });
});
