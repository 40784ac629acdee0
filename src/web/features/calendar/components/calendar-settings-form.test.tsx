// @vitest-environment jsdom
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { EMPTY_WEEK, type CalendarAnswer } from "@shared/calendar";
import { fakeApi, renderWithApp } from "@/testing/render";
import { CalendarSettingsForm } from "./calendar-settings-form";

// The provider's calendar form is judged by the server's schema before it sends, and puts the
// server's refusals under the fields they name (fieldErrors), window by window.

const saved: CalendarAnswer = {
  timeZone: "America/New_York",
  weeklyHours: { ...EMPTY_WEEK, monday: [{ from: "09:00", to: "17:00" }] },
  daysOff: [],
  minNoticeHours: 24,
  maxTasksPerDay: 3,
  instantBooking: false,
  updatedAt: null,
};

/** The words a field is described by: its hint and its error. */
const describedBy = (field: HTMLElement) =>
  (field.getAttribute("aria-describedby") ?? "")
    .split(" ")
    .map((id) => document.getElementById(id)?.textContent ?? "")
    .join(" ");

const monday = () => screen.getByRole("group", { name: "Monday" });

describe("CalendarSettingsForm", { timeout: 30_000 }, () => {
  it("shows a window that ends before it starts and a notice too long under their fields, and sends nothing", async () => {
    const api = fakeApi({});
    renderWithApp(<CalendarSettingsForm saved={saved} />);
    const user = userEvent.setup();
    const to = within(monday()).getByLabelText(/^To/);
    await user.clear(to);
    await user.type(to, "08:00");
    const notice = screen.getByLabelText(/^Notice you need/);
    await user.clear(notice);
    await user.type(notice, "999");
    await user.click(screen.getByRole("button", { name: "Save calendar" }));
    expect(await screen.findByText("The end must be after the start")).toBeTruthy();
    expect(describedBy(within(monday()).getByLabelText(/^To/))).toContain("The end must be after the start");
    expect(describedBy(screen.getByLabelText(/^Notice you need/))).toContain("Notice is at most 336 hours (two weeks)");
    expect(api.calls).toEqual([]);
  });

  it("sends the week as typed, with a new window, a day off and instant booking", async () => {
    const api = fakeApi({ "PUT /api/calendar": ({ body }) => ({ body: { ...(body as object), updatedAt: "2026-12-07T12:00:00.000Z" } }) });
    renderWithApp(<CalendarSettingsForm saved={saved} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Add hours on Saturday" }));
    await user.type(screen.getByLabelText(/^Day off/), "2026-12-24");
    await user.click(screen.getByRole("button", { name: /Add day off/ }));
    await user.click(screen.getByRole("switch", { name: "Instant booking" }));
    await user.click(screen.getByRole("button", { name: "Save calendar" }));
    expect(await screen.findByText("Calendar saved")).toBeTruthy();
    const [put] = api.called("PUT", "/api/calendar");
    expect(put?.body).toMatchObject({
      timeZone: "America/New_York",
      weeklyHours: { monday: [{ from: "09:00", to: "17:00" }], saturday: [{ from: "09:00", to: "17:00" }], sunday: [] },
      daysOff: ["2026-12-24"],
      minNoticeHours: 24,
      maxTasksPerDay: 3,
      instantBooking: true,
    });
  });

  it("puts the server's refusal under the window it names, whatever its words", async () => {
    const refusal = "Choose your time zone from the list, such as America/New_York";
    const overlap = "This window overlaps another one of the same day. Join them into one.";
    fakeApi({
      "PUT /api/calendar": { status: 400, body: { message: refusal, fieldErrors: { timeZone: refusal, "weeklyHours.monday.0.from": overlap } } },
    });
    renderWithApp(<CalendarSettingsForm saved={saved} />);
    await userEvent.setup().click(screen.getByRole("button", { name: "Save calendar" }));
    expect(await screen.findByText(overlap)).toBeTruthy();
    expect(describedBy(within(monday()).getByLabelText(/^From/))).toContain(overlap);
    expect(describedBy(screen.getByLabelText(/^Your time zone/))).toContain(refusal);
  });
});
