// @vitest-environment jsdom
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { SlotsAnswer } from "@shared/calendar";
import { fakeApi, renderWithApp } from "@/testing/render";
import { SlotPicker } from "./slot-picker";

// The free slots are grouped by day on the viewer's clock, not the provider's, and chosen with
// the keyboard as a radio group: Tab reaches it once, the arrows move, the choice is said.

const PROVIDER = "00000000-0000-4000-8000-000000000002";
const answer = (instantBooking: boolean): SlotsAnswer => ({
  providerId: PROVIDER,
  timeZone: "America/New_York",
  durationMinutes: 60,
  instantBooking,
  // 9:00 and 10:00 in New York on Tue 8 Dec; 23:30 New York on the 8th is the 9th in London.
  slots: [
    { startsAt: "2026-12-08T14:00:00.000Z", endsAt: "2026-12-08T15:00:00.000Z" },
    { startsAt: "2026-12-08T15:00:00.000Z", endsAt: "2026-12-08T16:00:00.000Z" },
    { startsAt: "2026-12-09T04:30:00.000Z", endsAt: "2026-12-09T05:30:00.000Z" },
  ],
});

// user-event walks a radio group by CSS.escape of its name, which jsdom lacks.
vi.stubGlobal("CSS", { escape: (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`) });

describe("SlotPicker", { timeout: 30_000 }, () => {
  it("groups the slots by day on the viewer's clock", async () => {
    fakeApi({ [`GET /api/providers/${PROVIDER}/slots`]: { body: answer(false) } });
    renderWithApp(<SlotPicker providerId={PROVIDER} providerName="Sam" durationMinutes={60} value={null} onChange={() => {}} timeZone="Europe/London" />);
    const tuesday = await screen.findByRole("group", { name: "Tuesday, December 8" }, { timeout: 10_000 });
    expect(within(tuesday).getAllByRole("radio").map((r) => r.getAttribute("value"))).toEqual(["2026-12-08T14:00:00.000Z", "2026-12-08T15:00:00.000Z"]);
    expect(within(tuesday).getByText("2:00 PM")).toBeTruthy();
    const wednesday = screen.getByRole("group", { name: "Wednesday, December 9" });
    expect(within(wednesday).getByText("4:30 AM")).toBeTruthy();
    expect(screen.getByText(/Choosing a time sends it with your request/)).toBeTruthy();
  });

  it("is chosen with the keyboard and says whether it books at once", async () => {
    fakeApi({ [`GET /api/providers/${PROVIDER}/slots`]: { body: answer(true) } });
    const onChange = vi.fn();
    renderWithApp(
      <>
        <button type="button">before</button>
        <SlotPicker providerId={PROVIDER} providerName="Sam" durationMinutes={60} value={null} onChange={onChange} timeZone="America/New_York" />
      </>,
    );
    await screen.findByRole("group", { name: "Tuesday, December 8" }, { timeout: 10_000 });
    expect(screen.getByText(/Choosing a time books it at once/)).toBeTruthy();
    const user = userEvent.setup();
    screen.getByRole("button", { name: "before" }).focus();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole("radio", { name: "9:00 AM, Tuesday, December 8" }));
    await user.keyboard("{ArrowRight}");
    expect(onChange).toHaveBeenLastCalledWith({ slot: answer(true).slots[1], instant: true });
  });

  it("says when there is nothing to choose", async () => {
    fakeApi({ [`GET /api/providers/${PROVIDER}/slots`]: { body: { ...answer(false), timeZone: null, slots: [] } } });
    renderWithApp(<SlotPicker providerId={PROVIDER} providerName="Sam" durationMinutes={60} value={null} onChange={() => {}} timeZone="America/New_York" />);
    expect(await screen.findByText("No calendar yet: no free times to choose from.")).toBeTruthy();
  });
});
