import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TASK_STATUSES } from "@shared/constants";
import { availableTransitions, evaluateTransition, OPEN_DISPUTE_MESSAGE, type TaskLifecycleState, type TaskViewer } from "@shared/task-lifecycle";
import { posterOwesPayment, TASK_ACTION_COPY, taskActionButtons } from "./task-actions";

const POSTER = "00000000-0000-4000-8000-000000000001";
const PROVIDER = "00000000-0000-4000-8000-000000000002";
const OTHER = "00000000-0000-4000-8000-000000000003";
const NOW = new Date("2026-03-01T12:00:00Z");
const LATER = "2026-03-01T12:20:00.000Z";

const viewer = (id: string, providerVerified = false): TaskViewer => ({ id, isAdmin: false, providerVerified });
const task = (overrides: Partial<TaskLifecycleState> = {}): TaskLifecycleState => ({
  status: "open",
  userId: POSTER,
  providerId: null,
  paymentCapturedAt: null,
  paymentDeadline: null,
  hiringMode: "first_to_claim",
  requestedProviderId: null,
  requestExpiresAt: null,
  requestFallback: null,
  scheduledDate: null,
  proposedStartAt: null,
  proposedById: null,
  onMyWayAt: null,
  arrivalEstimateAt: null,
  ...overrides,
});
const claimed = (paid: boolean) =>
  task({ status: "claimed", providerId: PROVIDER, paymentDeadline: LATER, paymentCapturedAt: paid ? "2026-03-01T12:01:00.000Z" : null });

const shown = (buttons: ReturnType<typeof taskActionButtons>) =>
  buttons.map((b) => ({ name: b.name, enabled: b.enabled, reason: b.disabledReason, signIn: b.signInMessage !== null }));

describe("taskActionButtons", () => {
  // docs/product.md, Requesting a provider: one Decline Request, the row of the poster's choice.
  it("offers the requested provider Accept and the one decline row the poster's choice picks; others nothing", () => {
    for (const fallback of ["open", "cancel"] as const) {
      const requested = task({ status: "requested", requestedProviderId: PROVIDER, requestExpiresAt: LATER, requestFallback: fallback });
      expect(taskActionButtons(requested, viewer(PROVIDER, true), NOW).map((b) => b.name)).toEqual([
        "accept_request",
        fallback === "open" ? "decline_request" : "decline_request_cancel",
      ]);
      expect(taskActionButtons(requested, viewer(OTHER, true), NOW)).toEqual([]);
      // The poster's Cancel Task on a waiting request is its own row, so the provider is told (decision 065).
      expect(taskActionButtons(requested, viewer(POSTER), NOW).map((b) => ({ name: b.name, label: b.label }))).toEqual([{ name: "cancel_request", label: "Cancel Task" }]);
    }
  });

  it("offers a visitor Claim on an open task, which sends them to sign in with the table's message", () => {
    const [claim, ...rest] = taskActionButtons(task(), null, NOW);
    expect(rest).toEqual([]);
    expect(claim).toMatchObject({ name: "claim", label: "Claim Task", enabled: true, signInMessage: "Sign in to claim this task" });
  });

  it("never offers the poster Claim on their own task, only Cancel", () => {
    expect(shown(taskActionButtons(task(), viewer(POSTER, true), NOW))).toEqual([
      { name: "cancel", enabled: true, reason: null, signIn: false },
    ]);
  });

  it("offers Claim to a verified provider and nothing to a signed-in person without verification", () => {
    expect(shown(taskActionButtons(task(), viewer(OTHER, true), NOW))).toEqual([{ name: "claim", enabled: true, reason: null, signIn: false }]);
    expect(taskActionButtons(task(), viewer(OTHER, false), NOW)).toEqual([]);
  });

  it("shows the assigned provider a disabled Start, with the table's reason, until the claim is paid", () => {
    const [start] = taskActionButtons(claimed(false), viewer(PROVIDER, true), NOW);
    expect(start).toMatchObject({
      name: "start",
      label: "Start Task",
      enabled: false,
      disabledReason: "Waiting for customer payment to start work",
      blockedBy: "paid",
    });
    expect(shown(taskActionButtons(claimed(true), viewer(PROVIDER, true), NOW))).toEqual([
      { name: "start", enabled: true, reason: null, signIn: false },
      { name: "withdraw", enabled: true, reason: null, signIn: false },
    ]);
  });

  it("offers the provider the one way out that fits the claim: release when unpaid, withdraw when paid (decision 058)", () => {
    expect(shown(taskActionButtons(claimed(false), viewer(PROVIDER, true), NOW)).map((b) => b.name)).toEqual(["start", "release_claim"]);
    expect(shown(taskActionButtons(claimed(true), viewer(PROVIDER, true), NOW)).map((b) => b.name)).toEqual(["start", "withdraw"]);
  });

  it("disables Cancel and Withdraw with the guard's reason while a reported problem is open, and leaves Start", () => {
    const paid = claimed(true);
    expect(shown(taskActionButtons(paid, viewer(PROVIDER, true), NOW, true))).toEqual([
      { name: "start", enabled: true, reason: null, signIn: false },
      { name: "withdraw", enabled: false, reason: OPEN_DISPUTE_MESSAGE, signIn: false },
    ]);
    expect(shown(taskActionButtons(paid, viewer(POSTER), NOW, true)).find((b) => b.name === "cancel")).toEqual({
      name: "cancel",
      enabled: false,
      reason: OPEN_DISPUTE_MESSAGE,
      signIn: false,
    });
  });

  it("offers the poster Decline until they pay, and no dead Decline once paid, with or without a dispute", () => {
    expect(shown(taskActionButtons(claimed(false), viewer(POSTER), NOW)).map((b) => b.name)).toEqual(["cancel", "decline"]);
    const paid = claimed(true);
    expect(shown(taskActionButtons(paid, viewer(POSTER), NOW))).toEqual([{ name: "cancel", enabled: true, reason: null, signIn: false }]);
    expect(shown(taskActionButtons(paid, viewer(POSTER), NOW, true))).toEqual([
      { name: "cancel", enabled: false, reason: OPEN_DISPUTE_MESSAGE, signIn: false },
    ]);
  });

  // Issue 41: a red Decline just after the poster chose that provider by accepting their offer.
  it("offers no Decline for a provider the poster chose: an accepted offer or an accepted request; a later claim has it", () => {
    const names = (t: TaskLifecycleState) => taskActionButtons(t, viewer(POSTER), NOW).map((b) => b.name);
    expect(names({ ...claimed(false), hiringMode: "offers" })).toEqual(["cancel"]);
    expect(names({ ...claimed(false), requestedProviderId: PROVIDER, requestFallback: "open" })).toEqual(["cancel"]);
    // The requested provider declined, and another claimed: an ordinary claim.
    expect(names({ ...claimed(false), requestedProviderId: OTHER, requestFallback: "open" })).toEqual(["cancel", "decline"]);
  });

  it("offers Mark Complete in progress, Reactivate after an expired payment, and nothing to a stranger", () => {
    const inProgress = { ...claimed(true), status: "in_progress" as const };
    expect(shown(taskActionButtons(inProgress, viewer(PROVIDER, true), NOW))).toEqual([
      { name: "complete", enabled: true, reason: null, signIn: false },
    ]);
    expect(taskActionButtons(task({ status: "payment_expired" }), viewer(POSTER), NOW).map((b) => b.name)).toEqual(["reactivate"]);
    expect(taskActionButtons(claimed(false), viewer(OTHER, true), NOW)).toEqual([]);
    expect(taskActionButtons(inProgress, { ...viewer(OTHER), isAdmin: true }, NOW)).toEqual([]);
  });

  it("agrees with the shared table for every state and viewer", () => {
    const viewers = [null, viewer(POSTER), viewer(PROVIDER, true), viewer(OTHER, true), viewer(OTHER, false)];
    fc.assert(
      fc.property(
        fc.constantFrom(...TASK_STATUSES),
        fc.boolean(),
        fc.boolean(),
        fc.option(fc.integer({ min: -3600, max: 3600 })),
        fc.constantFrom(...viewers),
        (status, assigned, paid, deadlineOffset, who) => {
          const state = task({
            status,
            providerId: assigned ? PROVIDER : null,
            paymentCapturedAt: paid ? NOW.toISOString() : null,
            paymentDeadline: deadlineOffset === null ? null : new Date(NOW.getTime() + deadlineOffset * 1000).toISOString(),
          });
          const buttons = taskActionButtons(state, who, NOW);
          // Every enabled button a signed-in person sees is a transition the table allows, and back.
          const allowed = availableTransitions(state, who, NOW).filter((name) => name in TASK_ACTION_COPY);
          expect(buttons.filter((b) => b.enabled && b.signInMessage === null).map((b) => b.name)).toEqual(allowed);
          // A disabled button carries exactly the refusal the server would answer.
          for (const b of buttons.filter((button) => !button.enabled)) {
            expect(evaluateTransition(b.name, state, who, NOW)).toEqual({ ok: false, status: 409, message: b.disabledReason });
          }
        },
      ),
    );
  });
});

describe("posterOwesPayment", () => {
  it("holds for the poster of an unpaid claim only", () => {
    expect(posterOwesPayment(claimed(false), POSTER, NOW)).toBe(true);
    expect(posterOwesPayment(claimed(true), POSTER, NOW)).toBe(false);
    expect(posterOwesPayment(claimed(false), PROVIDER, NOW)).toBe(false);
    expect(posterOwesPayment(task(), POSTER, NOW)).toBe(false);
    expect(posterOwesPayment(claimed(false), null, NOW)).toBe(false);
  });
});
