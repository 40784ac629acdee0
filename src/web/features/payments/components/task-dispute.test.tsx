// @vitest-environment jsdom
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { TaskDisputeAnswer } from "@shared/disputes";
import { fakeApi, renderWithApp } from "@/testing/render";
import { POSTER, privateTask, PROVIDER } from "@/testing/task-fixture";
import { TaskDisputePanel } from "./task-dispute";

// An open dispute as each reader meets it (docs/product.md, Money: disputes; issue 41): a party
// gives their side; an admin who is no party has no side to give, gets a note to both and the
// resolve form, and the reason both people will read is a box that shows it whole.

const task = privateTask({ status: "in_progress", providerId: PROVIDER.id, provider: PROVIDER, paymentCapturedAt: "2026-01-02T00:00:00.000Z" });

const answer: TaskDisputeAnswer = {
  canReport: false,
  held: 33.3,
  dispute: {
    id: "00000000-0000-4000-8000-0000000000d4",
    status: "open",
    reason: "not_done",
    openedByRole: "poster",
    createdAt: "2026-01-03T00:00:00.000Z",
    moneyNow: "$33.30 is held in escrow until an admin decides.",
    messages: [],
    resolution: null,
  },
};

function signedInAs(person: { id: string; isAdmin: boolean }) {
  fakeApi({
    "GET /api/auth/user": {
      body: { id: person.id, email: "someone@example.test", firstName: "A", lastName: "B", first_name: "A", last_name: "B", name: "A B", profileImageUrl: null, role: person.isAdmin ? "admin" : "user", isAdmin: person.isAdmin, adminNeedsSecondFactor: false, emailVerified: true, createdAt: "2026-01-01T00:00:00.000Z" },
    },
    [`GET /api/tasks/${task.id}/dispute`]: { body: answer },
  });
}

describe("TaskDisputePanel, an open dispute", () => {
  it("asks an admin for no side of their own: a note to both, and the resolve form", async () => {
    signedInAs({ id: "00000000-0000-4000-8000-0000000000e5", isAdmin: true });
    renderWithApp(<TaskDisputePanel task={task} />);

    expect(await screen.findByRole("heading", { name: "Resolve as admin" })).toBeTruthy();
    expect(screen.queryByRole("textbox", { name: "Your side" })).toBeNull();
    expect(screen.getByRole("textbox", { name: /^Note to both people/ })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Send note" })).toBeTruthy();
    // The reason is a box of several lines: a one-line field cut off what both people will read.
    const reason = screen.getByRole("textbox", { name: "Reason shown to both" });
    expect(reason.tagName).toBe("TEXTAREA");
    expect(Number(reason.getAttribute("rows"))).toBeGreaterThan(1);
  });

  it("asks a party for their side, and shows them no resolve form", async () => {
    signedInAs({ id: POSTER.id, isAdmin: false });
    renderWithApp(<TaskDisputePanel task={task} />);

    expect(await screen.findByRole("textbox", { name: "Your side" })).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "Resolve as admin" })).toBeNull();
    expect(screen.queryByRole("textbox", { name: /^Note to both people/ })).toBeNull();
  });
});
