// @vitest-environment jsdom
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { AppointmentPage, ContactMessagePage } from "@shared/site";
import { fakeApi, renderWithApp } from "@/testing/render";
import { AdminInbox } from "./admin-inbox";

// The admin's inbox (docs/product.md#contact-and-appointments): the contact messages, and on their
// own tab the appointment requests with the way each visitor wants to be reached in words. Once in
// e2e/public-site.e2e.ts; who may open the page is src/web/app/protected-route.test.tsx's and the
// server's (test/security/authorization-matrix.test.ts), stored text shown inert stored-xss.e2e.ts's.

const messages: ContactMessagePage = {
  items: [{ id: "00000000-0000-4000-8000-0000000000c1", name: "Robin Reader", email: "robin@example.test", subject: "Inbox check", message: "Is the inbox working?", createdAt: "2026-12-01T15:00:00.000Z" }],
  total: 1,
  page: 1,
  pageSize: 20,
};
const appointments: AppointmentPage = {
  items: [
    {
      id: "00000000-0000-4000-8000-0000000000d1",
      name: "Quinn Planner",
      email: "quinn@example.test",
      phone: "410-555-0123",
      appointmentDate: "2026-12-10T15:00:00.000Z",
      reason: "Setting up a business account.",
      preferContact: "text",
      createdAt: "2026-12-01T15:00:00.000Z",
    },
  ],
  total: 1,
  page: 1,
  pageSize: 20,
};

describe("AdminInbox", { timeout: 30_000 }, () => {
  it("lists the contact messages, and the appointment requests on their tab with the contact method in words", async () => {
    fakeApi({ "GET /api/admin/contact-messages": { body: messages }, "GET /api/admin/appointments": { body: appointments } });
    renderWithApp(<AdminInbox />);

    const inbox = await screen.findByRole("table", { name: "Contact messages" });
    expect(within(inbox).getByRole("cell", { name: "Inbox check" })).toBeTruthy();
    expect(within(inbox).getByText("Robin Reader")).toBeTruthy();
    expect(within(inbox).getByText("Is the inbox working?")).toBeTruthy();

    await userEvent.setup().click(screen.getByRole("tab", { name: "Appointment Requests" }));
    const requests = await screen.findByRole("table", { name: "Appointment requests" });
    expect(within(requests).getByText("Quinn Planner")).toBeTruthy();
    expect(within(requests).getByRole("cell", { name: "Text Message" })).toBeTruthy();
    expect(within(requests).getByRole("link", { name: "410-555-0123" }).getAttribute("href")).toBe("tel:410-555-0123");
  });
});
