import { describe, expect, it } from "vitest";
import { TASK_STATUSES } from "@shared/constants";
import {
  canUseView,
  countdownLabel,
  initialDashboardView,
  publicPlace,
  relativeTime,
  scheduledDateLabel,
  scheduledDateLabelIn,
  dashboardDate,
  statusBadgeVariant,
  taskFelixContext,
} from "./task-format";
import type { TaskDetail, TaskPublic } from "@shared/tasks";

const place = { isRoute: false, city: null, state: null, startCity: null, startState: null, endCity: null, endState: null, stopCount: 0 };

describe("task display rules", () => {
  it("maps each status to its badge style (docs/product.md#web-app)", () => {
    expect(Object.fromEntries(TASK_STATUSES.map((s) => [s, statusBadgeVariant(s)]))).toEqual({
      open: "secondary",
      claimed: "default",
      in_progress: "default",
      completed: "default",
      cancelled: "destructive",
      payment_expired: "destructive",
      requested: "secondary",
    });
  });

  it("describes a place or a route without street addresses", () => {
    expect(publicPlace({ ...place, city: "Annapolis", state: "MD" })).toBe("Annapolis, MD");
    expect(publicPlace({ ...place, isRoute: true, startCity: "Bowie", endCity: "Annapolis", stopCount: 1 })).toBe("Bowie → Annapolis (+1 stop)");
    expect(publicPlace({ ...place, isRoute: true, startCity: "Bowie", endCity: "Laurel", stopCount: 2 })).toBe("Bowie → Laurel (+2 stops)");
  });

  it("prints relative times, 'Recently' without a date", () => {
    const now = new Date("2026-01-01T12:00:00Z");
    expect(relativeTime(null, now)).toBe("Recently");
    expect(relativeTime("not a date", now)).toBe("Recently");
    expect(relativeTime(new Date(Date.now() - 3 * 3600_000).toISOString())).toBe("about 3 hours ago");
    // From the clock it is given, not the machine's: the server's HTML and the hydrating browser agree.
    expect(relativeTime("2026-01-01T11:55:00Z", now)).toBe("5 minutes ago");
    expect(relativeTime("2026-01-01T12:00:30Z", now)).toBe("less than a minute ago");
  });

  it("formats the dashboard and scheduled dates as docs/product.md#web-app writes them", () => {
    const local = new Date(2026, 2, 5, 14, 7).toISOString();
    expect(dashboardDate(local)).toBe("Mar 5, 2:07 PM");
    expect(scheduledDateLabel(local)).toBe("Mar 5, 2026 at 2:07 PM");
  });

  it("writes a scheduled date on a named clock with the zone's name, for HTML rendered before the reader's zone is known", () => {
    expect(scheduledDateLabelIn("2026-12-01T15:00:00Z", "America/New_York")).toBe("Dec 1, 2026 at 10:00 AM EST");
    expect(scheduledDateLabelIn("2026-07-04T21:30:00Z", "America/New_York")).toBe("Jul 4, 2026 at 5:30 PM EDT");
  });

  it("counts down minutes and seconds, then says Expired", () => {
    const now = new Date("2026-01-01T12:00:00Z");
    expect(countdownLabel("2026-01-01T12:29:05Z", now)).toBe("29m 05s");
    expect(countdownLabel("2026-01-01T12:00:00Z", now)).toBe("Expired");
    expect(countdownLabel("2026-01-01T11:00:00Z", now)).toBe("Expired");
  });

  it("starts the dashboard in the view mode of each role", () => {
    expect(initialDashboardView("both", null)).toBe("provider");
    expect(initialDashboardView("both", "user")).toBe("user");
    expect(initialDashboardView("both", "garbage")).toBe("provider");
    // A provider who posted tasks comes back to the view they chose last.
    expect(initialDashboardView("provider", "user")).toBe("user");
    expect(initialDashboardView("provider", null)).toBe("provider");
    expect(initialDashboardView("user", "provider")).toBe("user");
    expect(initialDashboardView("admin", null)).toBe("user");
    expect([canUseView("user", "user"), canUseView("user", "provider")]).toEqual([true, false]);
    expect([canUseView("provider", "user"), canUseView("provider", "provider")]).toEqual([true, true]);
    expect([canUseView("both", "user"), canUseView("both", "provider")]).toEqual([true, true]);
  });
});

describe("taskFelixContext", () => {
  const party = { id: "00000000-0000-4000-8000-000000000001", displayName: "Paula P.", photoUrl: null, rating: null, reviewCount: 0 };
  const publicTask: TaskPublic = {
    id: "00000000-0000-4000-8000-000000000002",
    title: "Binders",
    description: "Print and deliver",
    category: "business",
    urgency: "urgent",
    budget: 75,
    urgentFee: 11.25,
    serviceFee: 7.4,
    totalAmount: 93.65,
    providerShare: 73.31,
    platformCommission: 12.94,
    scheduledDate: null,
    city: null,
    state: null,
    startCity: "Bowie",
    startState: "MD",
    endCity: "Annapolis",
    endState: "MD",
    stopCount: 1,
    isRoute: true,
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
    createdAt: "2026-01-01T00:00:00.000Z",
    userId: party.id,
    providerId: null,
    paymentDeadline: null,
    paymentCapturedAt: null,
    editedAt: null,
    poster: party,
    provider: null,
  };

  it("gives the evaluator towns and the offered budget, never addresses it was not sent", () => {
    const context = taskFelixContext(publicTask);
    expect(context).toMatchObject({ startCity: "Bowie", endCity: "Annapolis", urgency: "urgent", offeredBudget: 75, stops: [] });
    expect(context).not.toHaveProperty("startLocation");
  });

  it("adds the street addresses and stops of the private shape", () => {
    const privateTask: TaskDetail = {
      ...publicTask,
      visibility: "private",
      photos: [],
      poster: { ...party, firstName: "Paula", lastName: "Poster" },
      provider: null,
      location: null,
      startLocation: "15200 Annapolis Rd",
      endLocation: "58 West St",
      stops: [{ address: "350 Main St", city: "Laurel", state: "MD", notes: null }, { address: null, city: null, state: null, notes: null }],
      lat: null,
      lon: null,
      startLat: null,
      startLon: null,
      endLat: null,
      endLon: null,
      settlement: null,
    };
    expect(taskFelixContext(privateTask)).toMatchObject({
      startLocation: "15200 Annapolis Rd",
      endLocation: "58 West St",
      stops: [{ address: "350 Main St", city: "Laurel", state: "MD" }],
    });
  });
});
