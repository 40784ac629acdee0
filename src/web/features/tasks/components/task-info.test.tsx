// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { TaskDetail } from "@shared/tasks";
import { TaskLocation, UNPLACED_TASK_MESSAGE } from "./task-info";

// The task page's location (docs/product.md#tasks): one line per place without repeats, and the
// poster told when their task could not be placed (issue 27).

afterEach(cleanup);

const party = { id: "00000000-0000-4000-8000-000000000001", displayName: "Paula P.", photoUrl: null, rating: null, reviewCount: 0 };
const task: TaskDetail = {
  visibility: "private",
  photos: [],
  id: "00000000-0000-4000-8000-000000000002",
  title: "Binders",
  description: "Print and deliver",
  category: "business",
  urgency: "standard",
  budget: 75,
  urgentFee: 0,
  serviceFee: 7.4,
  totalAmount: 82.4,
  providerShare: 63.75,
  platformCommission: 11.25,
  scheduledDate: null,
  // A town picked as the address: the suggestion's address is the town itself.
  location: "Annapolis",
  city: "Annapolis",
  state: "MD",
  lat: 38.98,
  lon: -76.52,
  startCity: null,
  startState: null,
  endCity: null,
  endState: null,
  startLocation: null,
  endLocation: null,
  startLat: null,
  startLon: null,
  endLat: null,
  endLon: null,
  settlement: null,
  stops: null,
  stopCount: 0,
  isRoute: false,
  approxLat: 38.98,
  approxLon: -76.52,
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
  poster: { ...party, firstName: "Paula", lastName: "Poster" },
  provider: null,
};

describe("TaskLocation", () => {
  it("names a town picked as the address once: Annapolis, MD", () => {
    render(<TaskLocation task={task} isPoster />);
    expect(screen.getByText("Annapolis, MD")).toBeTruthy();
    expect(screen.queryByText(/Annapolis, Annapolis/)).toBeNull();
  });

  it("keeps a street and its town: 12 Main St, Annapolis, MD", () => {
    render(<TaskLocation task={{ ...task, location: "12 Main St" }} />);
    expect(screen.getByText("12 Main St, Annapolis, MD")).toBeTruthy();
  });

  it("tells the poster of an open task without a position what it misses and what to do", () => {
    const unplaced = { ...task, location: "The barn past the creek", city: "Nowheresville", approxLat: null, approxLon: null };
    const { unmount } = render(<TaskLocation task={unplaced} isPoster />);
    expect(screen.getByRole("status").textContent).toBe(UNPLACED_TASK_MESSAGE);
    unmount();
    // Nobody else is told, and a placed or claimed task says nothing.
    for (const [shown, isPoster] of [
      [unplaced, false],
      [task, true],
      [{ ...unplaced, status: "claimed" as const }, true],
    ] as const) {
      const view = render(<TaskLocation task={shown} isPoster={isPoster} />);
      expect(screen.queryByRole("status")).toBeNull();
      view.unmount();
    }
  });
});
