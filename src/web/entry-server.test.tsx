import { describe, expect, it } from "vitest";
import type { BoardTask, TaskDetail } from "@shared/tasks";
import { pageDataRequest, renderDataPage } from "./entry-server";

// The server renderer's per-request side (docs/decisions/036-server-rendered-data-pages.md): the
// markup a phone paints before any script runs, from the answer the server looked up.

const RENDERED_AT = new Date("2026-11-20T15:05:00Z");
const poster = { id: "00000000-0000-4000-8000-000000000001", displayName: "Paula P.", photoUrl: null, rating: 4.5, reviewCount: 2 };
const task: Omit<TaskDetail, "visibility" | "photos"> = {
  id: "00000000-0000-4000-8000-000000000002",
  title: "Walk Biscuit </script><script>alert(1)</script>",
  description: "The leash hangs by the door.",
  category: "pet",
  urgency: "standard",
  budget: 45,
  urgentFee: 0,
  serviceFee: 4.5,
  totalAmount: 49.5,
  providerShare: 38.25,
  platformCommission: 6.75,
  scheduledDate: "2026-12-01T15:00:00.000Z",
  city: "Annapolis",
  state: "MD",
  startCity: null,
  startState: null,
  endCity: null,
  endState: null,
  stopCount: 0,
  isRoute: false,
  approxLat: null,
  approxLon: null,
  distanceMiles: null,
  status: "open",
  hiringMode: "first_to_claim",
  requestedProviderId: null,
  requestedProviderName: null,
  requestExpiresAt: null,
  requestFallback: null,
  requestOutcome: null,
  timeZone: "America/New_York",
  durationMinutes: 60,
  proposedStartAt: null,
  proposedById: null,
  onMyWayAt: null,
  arrivalEstimateAt: null,
  createdAt: "2026-11-20T15:00:00.000Z",
  userId: poster.id,
  providerId: null,
  paymentDeadline: null,
  paymentCapturedAt: null,
  editedAt: null,
  poster,
  provider: null,
};

/** React left nothing for an inline script to finish (the CSP blocks them). */
function expectComplete(markup: string) {
  expect(markup).not.toMatch(/<script|<template|<!--\$[?!]-->/);
}

describe("renderDataPage", () => {
  it("renders the job board with its cards, as a visitor's first render sees it", async () => {
    const search = "category=pet";
    const request = pageDataRequest("/job-board", search);
    if (!request) throw new Error("the board has a request");
    const card: BoardTask = { ...task, photo: null };
    const { markup, state } = await renderDataPage("/job-board", search, request, [card, { ...card, id: "00000000-0000-4000-8000-000000000003", title: "Feed the cat" }], RENDERED_AT);
    expectComplete(markup);
    expect(markup).toContain(">Job Board</h1>");
    expect(markup.match(/data-testid="job-card"/g)).toHaveLength(2);
    expect(markup).toContain("Walk Biscuit &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(markup).toContain("Feed the cat");
    expect(markup).toContain("Showing tasks in <strong>Pet Care</strong>");
    // Relative times from the server's clock, which the browser uses again while it hydrates.
    expect(markup).toContain("5 minutes ago");
    expect(state.renderedAt).toBe(RENDERED_AT.toISOString());
    expect(state.queries).toHaveLength(1);
  });

  it("renders a task page with its title, budget, description and date", async () => {
    const detail: TaskDetail = { ...task, visibility: "public", photos: [] };
    // A task page's data is the task and its public questions (src/server/features/questions/page-data.ts).
    const questions = { questions: [] };
    const { markup, state } = await renderDataPage(`/task/${task.id}`, "", { kind: "task", id: task.id }, { task: detail, questions }, RENDERED_AT);
    expectComplete(markup);
    expect(markup).toContain('<h1 class="text-2xl font-bold tracking-tight sm:text-3xl">Walk Biscuit &lt;/script&gt;');
    expect(markup).toContain("$45.00");
    expect(markup).toContain("The leash hangs by the door.");
    expect(markup).toContain("Posted <!-- -->5 minutes ago");
    expect(markup).toContain('<time dateTime="2026-12-01T15:00:00.000Z">Dec 1, 2026 at 10:00 AM EST</time>');
    expect(markup).toContain("No questions yet.");
    expect(state.queries).toEqual([
      { key: ["/api/tasks", task.id], data: detail },
      { key: ["/api/tasks", task.id, "questions"], data: questions },
    ]);
  });
});
