// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { APPOINTMENT_MESSAGES, earliestAppointment, toDateTimeLocalValue } from "@shared/site";
import { fakeApi, renderWithApp } from "@/testing/render";
import { AppointmentForm } from "./appointment-form";

// The office-visit request (docs/product.md#contact-and-appointments): the form offers nothing
// before the earliest day the server accepts, refuses a too-short name under its field before
// anything is sent, and a sent request says so and puts the form back as it was. Once in
// e2e/public-site.e2e.ts; the date rules themselves are src/shared/site.test.ts's, the server's
// refusals src/server/features/site's.

const field = (label: RegExp) => screen.getByLabelText(label, { selector: "input, textarea" }) as HTMLInputElement | HTMLTextAreaElement;

/** The text of the elements that describe `element` (its hint and its error). */
const describedText = (element: Element) =>
  (element.getAttribute("aria-describedby") ?? "")
    .split(" ")
    .map((id) => document.getElementById(id)?.textContent ?? "")
    .join(" ");

// Three days ahead at 15:00 UTC, 10 or 11 AM in Annapolis: within opening hours in any runtime
// time zone, written as the runtime's own datetime-local value.
const visit = new Date(new Date(Date.now() + 3 * 86_400_000).setUTCHours(15, 0, 0, 0));

async function fill(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.type(field(/^Full Name/), name);
  await user.type(field(/^Email/), "jamie@example.test");
  await user.type(field(/^Phone/), "410-555-0199");
  fireEvent.change(field(/^Appointment Date & Time/), { target: { value: toDateTimeLocalValue(visit) } });
  await user.click(screen.getByRole("radio", { name: "Phone Call" }));
  await user.type(field(/^Reason for Visit/), "I want help setting up my provider profile.");
}

describe("AppointmentForm", { timeout: 30_000 }, () => {
  it("offers no time before the earliest the server accepts", () => {
    fakeApi({});
    renderWithApp(<AppointmentForm />);
    expect(field(/^Appointment Date & Time/).getAttribute("min")).toBe(toDateTimeLocalValue(earliestAppointment(new Date())));
  });

  it("refuses a one-letter name under its field and sends nothing", async () => {
    const api = fakeApi({ "POST /api/appointments": { status: 201, body: { ok: true, id: "a1" } } });
    renderWithApp(<AppointmentForm />);
    const user = userEvent.setup();
    await fill(user, "J");
    await user.click(screen.getByRole("button", { name: "Submit Appointment Request" }));

    const name = field(/^Full Name/);
    await waitFor(() => expect(name.getAttribute("aria-invalid")).toBe("true"));
    expect(describedText(name)).toContain(APPOINTMENT_MESSAGES.name);
    expect(screen.queryByText("Appointment Request Submitted!")).toBeNull();
    expect(api.called("POST", "/api/appointments")).toHaveLength(0);
  });

  it("sends a valid request with the instant chosen, says so and resets the form", async () => {
    const api = fakeApi({ "POST /api/appointments": { status: 201, body: { ok: true, id: "a1" } } });
    renderWithApp(<AppointmentForm />);
    const user = userEvent.setup();
    await fill(user, "Jamie Rivera");
    await user.click(screen.getByRole("button", { name: "Submit Appointment Request" }));

    expect(await screen.findByText("Appointment Request Submitted!")).toBeTruthy();
    expect(api.called("POST", "/api/appointments").map((c) => c.body)).toEqual([
      {
        name: "Jamie Rivera",
        email: "jamie@example.test",
        phone: "410-555-0199",
        appointmentDate: visit.toISOString(),
        reason: "I want help setting up my provider profile.",
        preferContact: "call",
      },
    ]);
    for (const label of [/^Full Name/, /^Email/, /^Phone/, /^Appointment Date & Time/, /^Reason for Visit/]) expect(field(label).value).toBe("");
    expect(screen.getByRole("radio", { name: "Office Visit" }).getAttribute("aria-checked")).toBe("true");
  });
});
