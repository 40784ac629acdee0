// @vitest-environment jsdom
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { TaskDetail } from "@shared/tasks";
import { fakeApi, renderWithApp } from "@/testing/render";
import { TaskTimeCard } from "./task-time-card";

// A claimed task's time between its two people (docs/decisions/074-time-and-turning-up.md): the
// poster reads "on the way" with the arrival on their own clock; 30 minutes past the start with no
// start they may wait, reschedule or report a no-show; the provider is asked each time whether to
// share their position; a new time waits for the other side's answer.

const party = { id: "00000000-0000-4000-8000-000000000001", displayName: "Paula P.", photoUrl: null, rating: null, reviewCount: 0 };
const providerId = "00000000-0000-4000-8000-000000000003";
const base: TaskDetail = {
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

const START = "2026-12-08T15:00:00.000Z"; // 10:00 AM in New York
const task = (over: Partial<TaskDetail>): TaskDetail =>
  ({
    ...base,
    status: "claimed",
    scheduledDate: START,
    providerId,
    paymentCapturedAt: "2026-12-07T15:00:00.000Z",
    provider: { id: providerId, displayName: "Sam S.", profilePhotoUrl: null, rating: null, reviewCount: 0, completedTasks: 3, firstName: "Sam", lastName: "Smith" },
    ...over,
  }) as TaskDetail;
const poster = { id: party.id, isAdmin: false, providerVerified: false };
const provider = { id: providerId, isAdmin: false, providerVerified: true };
const zone = "America/New_York";

describe("TaskTimeCard", { timeout: 30_000 }, () => {
  it("tells the poster the provider is on the way, with the arrival on their clock", () => {
    renderWithApp(
      <TaskTimeCard task={task({ onMyWayAt: "2026-12-08T14:40:00.000Z", arrivalEstimateAt: "2026-12-08T14:55:00.000Z" })} viewer={poster} now={new Date("2026-12-08T14:41:00Z")} onChanged={() => {}} timeZone={zone} />,
    );
    expect(screen.getByText("Sam S. is on the way (arrives about 9:55 AM)")).toBeTruthy();
    expect(screen.getByText("Tue 8 Dec, 10:00–11:00 AM EST")).toBeTruthy();
    expect(screen.queryByText(/has not started/)).toBeNull();
  });

  it("offers the poster wait, reschedule or a no-show 30 minutes after the start, and reports it after asking", async () => {
    const api = fakeApi({ [`PATCH /api/tasks/${base.id}/report-no-show`]: { body: {} } });
    const late = new Date("2026-12-08T15:31:00Z");
    renderWithApp(<TaskTimeCard task={task({})} viewer={poster} now={late} onChanged={() => {}} timeZone={zone} />);
    expect(screen.getByText("Sam S. has not started")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Wait" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Reschedule" })).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Report a no-show" }));
    expect(await screen.findByText("The task ends and $82.40 is refunded to you in full.")).toBeTruthy();
    expect(api.calls).toEqual([]);
    await user.click(screen.getByRole("button", { name: "Yes, report a no-show" }));
    expect(await screen.findByText("No-show reported: you are refunded in full.")).toBeTruthy();
    expect(api.called("PATCH", `/api/tasks/${base.id}/report-no-show`)).toHaveLength(1);
  });

  it("shows no late choices 29 minutes after the start", () => {
    renderWithApp(<TaskTimeCard task={task({})} viewer={poster} now={new Date("2026-12-08T15:29:00Z")} onChanged={() => {}} timeZone={zone} />);
    expect(screen.queryByText(/has not started/)).toBeNull();
  });

  it("asks the provider whether to share their position, and sends none when they decline", async () => {
    const api = fakeApi({ [`POST /api/tasks/${base.id}/on-my-way`]: { body: {} } });
    renderWithApp(<TaskTimeCard task={task({})} viewer={provider} now={new Date("2026-12-08T14:30:00Z")} onChanged={() => {}} timeZone={zone} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "On my way" }));
    expect(await screen.findByText("Share your position for an arrival time?")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Don't share" }));
    expect(await screen.findByText("Paula P. has been told.")).toBeTruthy();
    expect(api.called("POST", `/api/tasks/${base.id}/on-my-way`)[0]?.body).toEqual({ position: null });
  });

  it("lets the other side accept or decline a proposed time, and the proposer wait", async () => {
    const api = fakeApi({ [`PATCH /api/tasks/${base.id}/accept-time`]: { body: {} } });
    const proposed = task({ proposedStartAt: "2026-12-09T15:00:00.000Z", proposedById: providerId });
    const { unmount } = renderWithApp(<TaskTimeCard task={proposed} viewer={provider} now={new Date("2026-12-08T12:00:00Z")} onChanged={() => {}} timeZone={zone} />);
    expect(screen.getByText(/You proposed Wed 9 Dec, 10:00–11:00 AM EST/)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Accept new time" })).toBeNull();
    unmount();
    renderWithApp(<TaskTimeCard task={proposed} viewer={poster} now={new Date("2026-12-08T12:00:00Z")} onChanged={() => {}} timeZone={zone} />);
    expect(screen.getByText("Sam S. proposes a new time: Wed 9 Dec, 10:00–11:00 AM EST")).toBeTruthy();
    await userEvent.setup().click(screen.getByRole("button", { name: "Accept new time" }));
    expect(await screen.findByText("New time accepted")).toBeTruthy();
    expect(api.called("PATCH", `/api/tasks/${base.id}/accept-time`)).toHaveLength(1);
  });

  it("puts the server's refusal of the poster's new time under the date", async () => {
    const overlap = "That time overlaps another task the provider has booked. Choose another of their free times.";
    fakeApi({ [`POST /api/tasks/${base.id}/propose-time`]: { status: 409, body: { message: overlap } } });
    renderWithApp(<TaskTimeCard task={task({})} viewer={poster} now={new Date()} onChanged={() => {}} timeZone={zone} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Propose a new time" }));
    await user.type(screen.getByLabelText(/^New date/), "2099-01-05");
    await user.type(screen.getByLabelText(/^New start time/), "10:00");
    await user.click(screen.getByRole("button", { name: "Send new time" }));
    const date = screen.getByLabelText(/^New date/);
    expect(await screen.findByText(overlap)).toBeTruthy();
    expect(date.getAttribute("aria-invalid")).toBe("true");
  });
});
