import { describe, expect, it } from "vitest";
import type { TaskStatus } from "@shared/constants";
import { TASK_CONDITIONS, TASK_TRANSITIONS } from "@shared/task-lifecycle";
import { OWN_BUTTONS, type TaskAction } from "../api/transition-task";
import { actionConfirmation, type EscrowAction } from "./task-action-confirmations";

// Every confirmation states its amounts (docs/product.md, Web app: "Confirmations").

const base = {
  budget: 30,
  urgency: "standard" as const,
  totalAmount: 32.9,
  providerShare: 25.5,
  paymentCapturedAt: null,
  providerId: null,
  provider: null,
  status: "open" as const,
  scheduledDate: null,
};
const provider = { id: "00000000-0000-4000-8000-000000000001", displayName: "Maria G.", profilePhotoUrl: null, rating: 4.8, reviewCount: 5, completedTasks: 12 };

describe("actionConfirmation", () => {
  it("tells a provider what they will earn and about the payment window when claiming", () => {
    expect(actionConfirmation("claim", base)?.lines).toEqual(["You'll earn $25.50. The poster has 30 minutes to pay; you can start once they do."]);
    expect(actionConfirmation("claim", { ...base, budget: 50, urgency: "urgent", providerShare: 48.87 })?.lines[0]).toContain("You'll earn $48.87.");
  });

  it("states the share stored with the task, not one worked out again from its budget", () => {
    // A task priced when the provider's share was 70% keeps it (docs/decisions/073).
    expect(actionConfirmation("claim", { ...base, providerShare: 21 })?.lines[0]).toContain("You'll earn $21.00.");
    expect(actionConfirmation("complete", { ...base, providerShare: 21 })?.lines[0]).toBe("$21.00 is released to your balance right away.");
  });

  it("names the refund and the provider when cancelling a paid task", () => {
    const lines = actionConfirmation("cancel", { ...base, status: "claimed", paymentCapturedAt: "2026-11-24T10:00:00Z", providerId: provider.id, provider })?.lines;
    expect(lines).toContain("$32.90 will be refunded to your card.");
    expect(lines).toContain("The provider will be told, and the chat will close.");
    expect(actionConfirmation("cancel", base)?.lines).not.toContain("$32.90 will be refunded to your card.");
  });

  // Decision 065: a waiting request has nothing paid and is on no board; its provider is the one told.
  it("says no money moves and names the requested provider when cancelling a waiting request", () => {
    const requested = { ...base, status: "requested" as const, requestedProviderName: "Sam P." };
    expect(actionConfirmation("cancel_request", requested)).toEqual({
      title: "Cancel this task?",
      lines: ["Nothing has been paid, so no money moves.", "Sam P. will be told that you cancelled the request.", "This cannot be undone."],
      confirmLabel: "Yes, cancel task",
      cancelLabel: "Keep task",
      destructive: true,
    });
  });

  it("states the late-cancellation fee and the rest refunded before a paid task due within a day is cancelled", () => {
    const now = new Date("2026-11-24T10:00:00Z");
    const paid = { ...base, status: "claimed" as const, paymentCapturedAt: "2026-11-24T09:00:00Z", providerId: provider.id, provider };
    const soon = actionConfirmation("cancel", { ...paid, scheduledDate: "2026-11-24T20:00:00Z" }, now)?.lines;
    // 15% of $30 is $4.50, below the $5 minimum.
    expect(soon).toContain("The task is due in less than 24 hours, so $5.00 goes to Maria G. as a late-cancellation fee.");
    expect(soon).toContain("$27.90 will be refunded to your card.");
    const later = actionConfirmation("cancel", { ...paid, scheduledDate: "2026-11-26T20:00:00Z" }, now)?.lines;
    expect(later).toContain("$32.90 will be refunded to your card.");
  });

  it("says when the provider's share is released on completion", () => {
    expect(actionConfirmation("complete", base)?.lines[0]).toBe("$25.50 is released to your balance right away.");
    expect(actionConfirmation("complete", { ...base, budget: 200, providerShare: 170 })?.lines[0]).toBe(
      "The poster has 24 hours to approve or report a problem; then $170.00 is released to you.",
    );
  });

  it("tells a provider who withdraws from a paid task the refund in the table's words", () => {
    const paid = { ...base, status: "claimed" as const, paymentCapturedAt: "2026-11-24T10:00:00Z", providerId: provider.id, provider };
    expect(actionConfirmation("withdraw", paid)?.lines[0]).toBe("$32.90 will be refunded to the poster's card.");
  });

  it("names the declined provider", () => {
    const confirmation = actionConfirmation("decline", { ...base, status: "claimed", providerId: provider.id, provider });
    expect(confirmation?.title).toBe("Decline Maria G.?");
    expect(confirmation?.lines[1]).toBe("Maria G. will be told and cannot claim this task again.");
  });

  it("asks nothing before start and reactivate", () => {
    expect(actionConfirmation("start", base)).toBeNull();
    expect(actionConfirmation("reactivate", base)).toBeNull();
  });
});

// Every row of the task table that a person confirms and whose actions move money (escrow.*) must
// say, before it happens, what happens to the money and how much: a row added without its words
// fails here (docs/product.md, Web app: "Confirmations").
describe("confirmations of the task table's money-moving rows", () => {
  const paid = {
    ...base,
    budget: 30,
    totalAmount: 32.9,
    paymentCapturedAt: "2026-11-24T10:00:00Z",
    paymentDeadline: "2026-11-24T10:30:00Z",
    userId: "00000000-0000-4000-8000-000000000002",
    hiringMode: "first_to_claim" as const,
    requestedProviderId: null,
    requestExpiresAt: null,
    requestFallback: null,
    proposedStartAt: null,
    proposedById: null,
    onMyWayAt: null,
    arrivalEstimateAt: null,
    providerId: provider.id,
    provider,
    // Due within a day of `now`, so a row that takes a late-cancellation fee takes it.
    scheduledDate: "2026-11-24T20:00:00Z",
  };
  const now = new Date("2026-11-24T10:10:00Z");
  // What each money action must name on the paid $30 task above: the amount, and what happens to it.
  // A row that pays the late fee ($5.00, the minimum) refunds the rest.
  const named: Record<EscrowAction, (actions: readonly string[]) => { amount: string; words: RegExp }> = {
    "escrow.late_fee": () => ({ amount: "$5.00", words: /late-cancellation fee/ }),
    "escrow.refund": (actions) => ({ amount: actions.includes("escrow.late_fee") ? "$27.90" : "$32.90", words: /refunded/ }),
    "escrow.hold": () => ({ amount: "$25.50", words: /released to/ }),
  };
  // Admins confirm their rows on the admin's own screens, which state their refunds there; a row
  // with a button of its own is confirmed by its own feature (report_no_show: the calendar's
  // task-time-card.test.tsx holds its refund to the same rule).
  const moneyRows = TASK_TRANSITIONS.filter(
    (row) =>
      row.actor !== "timer" &&
      row.actor !== "payment_system" &&
      row.actor !== "admin" &&
      !(OWN_BUTTONS as readonly string[]).includes(row.name) &&
      (row.actions as readonly string[]).some((a) => a.startsWith("escrow.")),
  );

  it("finds the rows (cancel refunds, complete holds)", () => {
    expect(moneyRows.map((row) => row.name)).toEqual(expect.arrayContaining(["cancel", "complete"]));
  });

  it.each(moneyRows.map((row) => [row.name, row] as const))("%s names each money consequence and its amount", (_name, row) => {
    // The paid task in each state the row leaves where its conditions hold.
    const states = (row.from as readonly TaskStatus[])
      .map((status) => ({ ...paid, status }))
      .filter((task) => row.requires.every(({ condition }) => TASK_CONDITIONS[condition](task, now)));
    expect(states, `${row.name} moves money but never from a paid task`).not.toEqual([]);
    for (const task of states) {
      const confirmation = actionConfirmation(row.name as TaskAction, task, now);
      expect(confirmation ?? null, `${row.name} from ${task.status} moves money without asking first`).not.toBeNull();
      const text = confirmation?.lines.join(" ") ?? "";
      for (const action of (row.actions as readonly string[]).filter((a) => a.startsWith("escrow."))) {
        const expected = (named[action as EscrowAction] as ((actions: readonly string[]) => { amount: string; words: RegExp }) | undefined)?.(row.actions);
        expect(expected, `say here what ${action} must name`).toBeDefined();
        expect(text, `${row.name} from ${task.status}: ${action}`).toContain(expected?.amount);
        expect(text, `${row.name} from ${task.status}: ${action}`).toMatch(expected?.words ?? /$^/);
      }
    }
  });
});
