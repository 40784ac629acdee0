import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TASK_STATUSES, type TaskStatus } from "./constants.js";
import {
  DEFAULT_PAYMENT_WINDOW_MINUTES,
  TASK_ACTIONS,
  TASK_PROCESS,
  TASK_TRANSITIONS,
  TASK_TRANSITION_NAMES,
  applyTransition,
  availableTransitions,
  evaluateTransition,
  findTransition,
  type SystemActor,
  type TaskLifecycleState,
  type TaskTransitionName,
  type TaskViewer,
  type TransitionResult,
} from "./task-lifecycle.js";

const NOW = new Date("2026-03-01T12:00:00.000Z");
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);

const POSTER = "00000000-0000-4000-8000-000000000001";
const ASSIGNED = "00000000-0000-4000-8000-000000000002";

const ACTORS = {
  poster: { id: POSTER, isAdmin: false, providerVerified: false },
  assignedProvider: { id: ASSIGNED, isAdmin: false, providerVerified: true },
  otherProvider: { id: "00000000-0000-4000-8000-000000000003", isAdmin: false, providerVerified: true },
  unverifiedUser: { id: "00000000-0000-4000-8000-000000000004", isAdmin: false, providerVerified: false },
  admin: { id: "00000000-0000-4000-8000-000000000005", isAdmin: true, providerVerified: false },
  signedOut: null,
  timer: "timer",
  paymentSystem: "payment_system",
} as const satisfies Record<string, TaskViewer | SystemActor | null>;
type ActorKind = keyof typeof ACTORS;
const ACTOR_KINDS = Object.keys(ACTORS) as ActorKind[];

const task = (overrides: Partial<TaskLifecycleState>): TaskLifecycleState => ({
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

const TASKS = {
  open: task({}),
  claimedUnpaid: task({ status: "claimed", providerId: ASSIGNED, paymentDeadline: minutes(10) }),
  claimedUnpaidLate: task({ status: "claimed", providerId: ASSIGNED, paymentDeadline: minutes(-1) }),
  claimedPaid: task({
    status: "claimed",
    providerId: ASSIGNED,
    paymentDeadline: minutes(10),
    paymentCapturedAt: minutes(-5),
  }),
  claimedPaidLate: task({
    status: "claimed",
    providerId: ASSIGNED,
    paymentDeadline: minutes(-1),
    paymentCapturedAt: minutes(-5),
  }),
  inProgress: task({ status: "in_progress", providerId: ASSIGNED, paymentCapturedAt: minutes(-60) }),
  paymentExpired: task({ status: "payment_expired" }),
};

const OK: TransitionResult = { ok: true };
const refused = (status: 401 | 403 | 409, message: string): TransitionResult => ({ ok: false, status, message });

/** Every actor kind not named in `overrides` gets `otherwise`; signed out always gets 401. */
function matrix(
  name: TaskTransitionName,
  otherwise: TransitionResult,
  overrides: Partial<Record<ActorKind, TransitionResult>>,
): Record<ActorKind, TransitionResult> {
  const rows = {} as Record<ActorKind, TransitionResult>;
  for (const kind of ACTOR_KINDS) rows[kind] = overrides[kind] ?? otherwise;
  rows.signedOut = refused(401, `Sign in to ${name === "release_claim" ? "release the claim on" : name} this task`);
  return rows;
}

const notVerified = refused(403, "Only verified providers can claim tasks");
const notAssigned = (verb: string) => refused(403, `Only the assigned provider can ${verb} this task`);
const notOwner = (verb: string) => refused(403, `Only the task owner can ${verb} this task`);
const notTimer = refused(403, "A claim expires only when its payment window runs out");
const notPaymentSystem = refused(403, "Payments are recorded only by the payment system");
const notAdmin = (verb: string) => refused(403, `Only an admin can ${verb} this task`);

const CASES: { name: TaskTransitionName; on: keyof typeof TASKS; expected: Record<ActorKind, TransitionResult> }[] = [
  {
    name: "claim",
    on: "open",
    expected: matrix("claim", notVerified, {
      poster: refused(403, "You cannot claim your own task"),
      assignedProvider: OK,
      otherProvider: OK,
    }),
  },
  {
    name: "claim",
    on: "claimedUnpaid",
    expected: matrix("claim", notVerified, {
      poster: refused(403, "You cannot claim your own task"),
      assignedProvider: refused(409, "This task has already been claimed"),
      otherProvider: refused(409, "This task has already been claimed"),
    }),
  },
  {
    name: "claim",
    on: "paymentExpired",
    expected: matrix("claim", notVerified, {
      poster: refused(403, "You cannot claim your own task"),
      otherProvider: refused(409, "This task is not open for claiming"),
      assignedProvider: refused(409, "This task is not open for claiming"),
    }),
  },
  {
    name: "pay",
    on: "claimedUnpaid",
    expected: matrix("pay", notPaymentSystem, { paymentSystem: OK }),
  },
  {
    name: "pay",
    on: "claimedPaid",
    expected: matrix("pay", notPaymentSystem, { paymentSystem: refused(409, "This task has already been paid") }),
  },
  {
    name: "pay",
    on: "claimedUnpaidLate",
    expected: matrix("pay", notPaymentSystem, {
      paymentSystem: refused(409, "The payment window for this task has closed"),
    }),
  },
  {
    // Paid, then started: the refusal says it was paid, not only that it is no longer claimed.
    name: "pay",
    on: "inProgress",
    expected: matrix("pay", notPaymentSystem, { paymentSystem: refused(409, "This task has already been paid") }),
  },
  {
    name: "pay",
    on: "open",
    expected: matrix("pay", notPaymentSystem, { paymentSystem: refused(409, "Only a claimed task can be paid") }),
  },
  {
    name: "start",
    on: "claimedPaid",
    expected: matrix("start", notAssigned("start"), { assignedProvider: OK }),
  },
  {
    name: "start",
    on: "claimedPaidLate",
    expected: matrix("start", notAssigned("start"), { assignedProvider: OK }),
  },
  {
    name: "start",
    on: "claimedUnpaid",
    expected: matrix("start", notAssigned("start"), {
      assignedProvider: refused(409, "Waiting for customer payment to start work"),
    }),
  },
  {
    name: "start",
    on: "inProgress",
    expected: matrix("start", notAssigned("start"), {
      assignedProvider: refused(409, "This task has already been started"),
    }),
  },
  {
    name: "complete",
    on: "inProgress",
    expected: matrix("complete", notAssigned("complete"), { assignedProvider: OK }),
  },
  {
    name: "complete",
    on: "claimedPaid",
    expected: matrix("complete", notAssigned("complete"), {
      assignedProvider: refused(409, "Only a task in progress can be completed"),
    }),
  },
  { name: "cancel", on: "open", expected: matrix("cancel", notOwner("cancel"), { poster: OK }) },
  { name: "cancel", on: "claimedUnpaid", expected: matrix("cancel", notOwner("cancel"), { poster: OK }) },
  { name: "cancel", on: "claimedPaid", expected: matrix("cancel", notOwner("cancel"), { poster: OK }) },
  {
    name: "cancel",
    on: "inProgress",
    expected: matrix("cancel", notOwner("cancel"), {
      poster: refused(409, "Only an open or claimed task can be cancelled"),
    }),
  },
  { name: "expire", on: "claimedUnpaidLate", expected: matrix("expire", notTimer, { timer: OK }) },
  // docs/decisions/058-withdrawing-and-editing.md: each kind of claim has its own way out.
  {
    name: "withdraw",
    on: "claimedPaid",
    expected: matrix("withdraw", notAssigned("withdraw"), { assignedProvider: OK }),
  },
  {
    name: "withdraw",
    on: "claimedUnpaid",
    expected: matrix("withdraw", notAssigned("withdraw"), { assignedProvider: refused(409, "The poster has not paid yet; release the claim instead") }),
  },
  {
    name: "release_claim",
    on: "claimedUnpaid",
    expected: matrix("release_claim", notAssigned("release the claim on"), { assignedProvider: OK }),
  },
  {
    name: "release_claim",
    on: "claimedPaid",
    expected: matrix("release_claim", notAssigned("release the claim on"), {
      assignedProvider: refused(409, "The poster has paid; withdraw from the task instead, and they are refunded in full"),
    }),
  },
  {
    name: "withdraw",
    on: "inProgress",
    expected: matrix("withdraw", notAssigned("withdraw"), {
      assignedProvider: refused(409, "Work on this task has already started, so you can no longer withdraw from it. Message the poster in the task's chat."),
    }),
  },
  {
    name: "expire",
    on: "claimedUnpaid",
    expected: matrix("expire", notTimer, { timer: refused(409, "The payment window is still open") }),
  },
  {
    name: "expire",
    on: "claimedPaidLate",
    expected: matrix("expire", notTimer, { timer: refused(409, "A paid claim does not expire") }),
  },
  { name: "reactivate", on: "paymentExpired", expected: matrix("reactivate", notOwner("reactivate"), { poster: OK }) },
  {
    name: "reactivate",
    on: "open",
    expected: matrix("reactivate", notOwner("reactivate"), {
      poster: refused(409, "Only a task whose payment expired can be reactivated"),
    }),
  },
  { name: "remove", on: "open", expected: matrix("remove", notAdmin("remove"), { admin: OK }) },
  { name: "remove", on: "claimedPaid", expected: matrix("remove", notAdmin("remove"), { admin: OK }) },
  { name: "remove", on: "inProgress", expected: matrix("remove", notAdmin("remove"), { admin: OK }) },
  { name: "remove", on: "paymentExpired", expected: matrix("remove", notAdmin("remove"), { admin: OK }) },
  { name: "release", on: "claimedPaid", expected: matrix("release", notAdmin("release"), { admin: OK }) },
  { name: "release", on: "inProgress", expected: matrix("release", notAdmin("release"), { admin: OK }) },
  {
    name: "release",
    on: "open",
    expected: matrix("release", notAdmin("release"), { admin: refused(409, "Only a claimed or started task's provider can be released") }),
  },
];

const ROWS = CASES.flatMap(({ name, on, expected }) =>
  ACTOR_KINDS.map((kind) => ({ name, on, kind, result: expected[kind] })),
);

describe("evaluateTransition", () => {
  it.each(ROWS)("$name on $on by $kind", ({ name, on, kind, result }) => {
    expect(evaluateTransition(name, TASKS[on], ACTORS[kind], NOW)).toEqual(result);
  });

  it("refuses every transition from every status outside its `from`, even for the right actor", () => {
    const rightActor = {
      verified_provider: ACTORS.otherProvider,
      assigned_provider: ACTORS.assignedProvider,
      poster: ACTORS.poster,
      timer: ACTORS.timer,
      payment_system: ACTORS.paymentSystem,
      admin: ACTORS.admin,
      requested_provider: ACTORS.otherProvider,
      party: ACTORS.poster,
      proposal_recipient: ACTORS.assignedProvider,
    } as const;
    for (const transition of TASK_TRANSITIONS) {
      for (const status of TASK_STATUSES) {
        if ((transition.from as readonly TaskStatus[]).includes(status)) continue;
        const subject = { ...TASKS.claimedPaidLate, status, requestedProviderId: ACTORS.otherProvider.id };
        const result = evaluateTransition(transition.name, subject, rightActor[transition.actor], NOW);
        expect(result, `${transition.name} from ${status}`).toMatchObject({ ok: false, status: 409 });
      }
    }
  });

  it("treats the deadline instant as passed", () => {
    const atDeadline = task({ status: "claimed", providerId: ASSIGNED, paymentDeadline: NOW });
    expect(evaluateTransition("expire", atDeadline, "timer", NOW)).toEqual(OK);
    expect(evaluateTransition("pay", atDeadline, "payment_system", NOW)).toMatchObject({ ok: false, status: 409 });
  });

  it("reads ISO strings as well as Dates", () => {
    const late = task({ status: "claimed", providerId: ASSIGNED, paymentDeadline: minutes(-1).toISOString() });
    const early = task({ status: "claimed", providerId: ASSIGNED, paymentDeadline: minutes(1).toISOString() });
    expect(evaluateTransition("expire", late, "timer", NOW)).toEqual(OK);
    expect(evaluateTransition("expire", early, "timer", NOW).ok).toBe(false);
    const paid = { ...early, paymentCapturedAt: NOW.toISOString() };
    expect(evaluateTransition("start", paid, ACTORS.assignedProvider, NOW)).toEqual(OK);
  });
});

describe("availableTransitions", () => {
  it.each([
    { on: "open", kind: "poster", names: ["cancel"] },
    { on: "open", kind: "otherProvider", names: ["claim"] },
    { on: "open", kind: "unverifiedUser", names: [] },
    { on: "open", kind: "admin", names: ["remove"] },
    { on: "claimedPaid", kind: "admin", names: ["resolve_dispute", "remove", "release"] },
    { on: "open", kind: "signedOut", names: [] },
    { on: "claimedUnpaid", kind: "poster", names: ["cancel", "decline", "propose_time"] },
    { on: "claimedPaid", kind: "poster", names: ["cancel", "propose_time"] },
    { on: "claimedUnpaid", kind: "assignedProvider", names: ["release_claim", "propose_time"] },
    { on: "claimedUnpaid", kind: "paymentSystem", names: ["pay"] },
    { on: "claimedUnpaidLate", kind: "timer", names: ["expire"] },
    { on: "claimedPaid", kind: "assignedProvider", names: ["start", "withdraw", "propose_time", "on_my_way"] },
    { on: "claimedPaid", kind: "otherProvider", names: [] },
    { on: "inProgress", kind: "assignedProvider", names: ["complete"] },
    { on: "inProgress", kind: "poster", names: [] },
    { on: "paymentExpired", kind: "poster", names: ["reactivate"] },
  ] as const)("$kind on $on may $names", ({ on, kind, names }) => {
    expect(availableTransitions(TASKS[on], ACTORS[kind], NOW)).toEqual(names);
  });
});

describe("applyTransition", () => {
  it("claim assigns the provider and opens the payment window", () => {
    const result = applyTransition("claim", TASKS.open, ACTORS.otherProvider, NOW);
    expect(result).toEqual({
      ok: true,
      task: {
        ...TASKS.open,
        status: "claimed",
        providerId: ACTORS.otherProvider.id,
        paymentDeadline: minutes(DEFAULT_PAYMENT_WINDOW_MINUTES),
      },
    });
  });

  it("claim honours a configured payment window", () => {
    const result = applyTransition("claim", TASKS.open, ACTORS.otherProvider, NOW, 45);
    expect(result.ok && result.task.paymentDeadline).toEqual(minutes(45));
  });

  it("pay records the capture and keeps the task claimed", () => {
    const result = applyTransition("pay", TASKS.claimedUnpaid, "payment_system", NOW);
    expect(result).toEqual({ ok: true, task: { ...TASKS.claimedUnpaid, paymentCapturedAt: NOW } });
  });

  it("expire releases the provider and clears the deadline", () => {
    const result = applyTransition("expire", TASKS.claimedUnpaidLate, "timer", NOW);
    expect(result).toEqual({
      ok: true,
      task: { ...TASKS.claimedUnpaidLate, status: "payment_expired", providerId: null, paymentDeadline: null },
    });
  });

  it("keeps fields it does not know about", () => {
    const row = { ...TASKS.open, id: "t1", title: "Groceries" };
    const result = applyTransition("cancel", row, ACTORS.poster, NOW);
    expect(result).toEqual({ ok: true, task: { ...row, status: "cancelled" } });
  });

  it("returns the refusal unchanged when not allowed", () => {
    expect(applyTransition("start", TASKS.claimedUnpaid, ACTORS.assignedProvider, NOW)).toEqual(
      refused(409, "Waiting for customer payment to start work"),
    );
  });
});

describe("the transition table", () => {
  it("is the table docs/product.md shows: every row, with its actions in order", () => {
    const product = readFileSync("docs/product.md", "utf8");
    const section = product.slice(product.indexOf("## Task states"), product.indexOf("## Timers"));
    const rows = section
      .split("\n")
      .filter((line) => line.startsWith("| ") && !line.startsWith("| Action") && !line.startsWith("|---"))
      .map((line) => line.split("|").map((cell) => cell.trim()))
      .map((cells) => [cells[1], cells[6]?.split(", ").filter(Boolean) ?? []] as const);
    // Each row once, in the table's order (a duplicated row once slipped past a map of them).
    expect(rows.map(([name]) => name)).toEqual(TASK_PROCESS.map((step) => step.name));
    const documented = new Map(rows);
    for (const step of TASK_PROCESS) expect(documented.get(step.name), step.name).toEqual([...step.actions]);
  });

  it("names every action it runs in TASK_ACTIONS, and uses each", () => {
    expect(new Set(TASK_PROCESS.flatMap((step) => step.actions))).toEqual(new Set(TASK_ACTIONS));
  });

  it("names each transition once", () => {
    expect(new Set(TASK_TRANSITION_NAMES).size).toBe(TASK_TRANSITIONS.length);
    for (const name of TASK_TRANSITION_NAMES) expect(findTransition(name).name).toBe(name);
  });

  it("leaves completed and cancelled without any way out", () => {
    const exits = TASK_TRANSITIONS.filter((t) =>
      (t.from as readonly TaskStatus[]).some((s) => s === "completed" || s === "cancelled"),
    );
    expect(exits).toEqual([]);
  });
});

describe("random sequences of transitions", () => {
  // Purely random (name, actor) pairs almost always die in "cancel" before reaching payment, so
  // most steps pick one of the moves allowed right now; the rest stay random to probe refusals.
  const step = fc.record({
    guided: fc.boolean(),
    pick: fc.nat(),
    name: fc.constantFrom(...TASK_TRANSITION_NAMES),
    kind: fc.constantFrom(...ACTOR_KINDS),
    advanceMinutes: fc.integer({ min: 0, max: 40 }),
    // The admin's rows (remove, release) are open from almost every state: guided steps take them
    // one time in ten, or the walk would rarely get past them to in_progress and completed.
    moderate: fc.integer({ min: 0, max: 9 }),
  });

  const KEEPS_CLAIMED = new Set<TaskTransitionName>(["propose_time", "accept_time", "decline_time", "on_my_way"]);

  it("follow only edges of the table, keep the row consistent, and availableTransitions agrees", () => {
    const reached = new Set<TaskStatus>();
    fc.assert(
      // Posting for everyone, or requesting a provider (decision 065), which starts in "requested".
      fc.property(fc.boolean(), fc.constantFrom("open", "cancel" as const), fc.array(step, { maxLength: 60 }), (requestFirst, fallback, steps) => {
        let current: TaskLifecycleState = requestFirst
          ? task({ status: "requested", requestedProviderId: ACTORS.otherProvider.id, requestExpiresAt: minutes(60), requestFallback: fallback })
          : task({});
        reached.add(current.status);
        let now = NOW;
        for (const { guided, pick, advanceMinutes, moderate, ...random } of steps) {
          now = new Date(now.getTime() + advanceMinutes * 60_000);

          const allowedMoves: { name: TaskTransitionName; kind: ActorKind }[] = [];
          for (const k of ACTOR_KINDS) {
            const available = availableTransitions(current, ACTORS[k], now);
            const allowed = TASK_TRANSITION_NAMES.filter((n) => evaluateTransition(n, current, ACTORS[k], now).ok);
            expect(available).toEqual(allowed);
            // The same for the rows that keep a claimed task claimed (a new time, "on my way": decision 074).
            const moves = moderate === 0 ? allowed : allowed.filter((n) => !KEEPS_CLAIMED.has(n));
            if (k !== "admin" || moderate === 0) allowedMoves.push(...moves.map((name) => ({ name, kind: k })));
          }

          const { name, kind } = (guided ? allowedMoves[pick % Math.max(allowedMoves.length, 1)] : undefined) ?? random;
          const actor = ACTORS[kind];
          if (actor === null) {
            expect(evaluateTransition(name, current, actor, now)).toMatchObject({ ok: false, status: 401 });
            continue;
          }
          // A proposal carries its new start, a day from now (decision 074).
          const result = applyTransition(name, current, actor, now, undefined, { proposedStartAt: new Date(now.getTime() + 86_400_000) });
          if (!result.ok) continue;

          const edge = findTransition(name);
          expect((edge.from as readonly TaskStatus[]).includes(current.status)).toBe(true);
          expect(result.task.status).toBe(edge.to);
          current = result.task;
          reached.add(current.status);

          expect(TASK_STATUSES).toContain(current.status);
          if (current.status === "open" || current.status === "payment_expired") {
            // release reopens a paid claim: its payment is refunded and forgotten.
            expect(current.providerId).toBeNull();
            expect(current.paymentCapturedAt).toBeNull();
          }
          if (current.status === "claimed") {
            expect(current.providerId).not.toBeNull();
            expect(current.paymentDeadline).not.toBeNull();
          }
          if (current.status === "in_progress" || current.status === "completed") {
            expect(current.providerId).not.toBeNull();
            expect(current.paymentCapturedAt).not.toBeNull();
          }
          expect(current.providerId).not.toBe(POSTER);
        }
      }),
      { numRuns: 500 },
    );
    // The walk did explore the whole machine, not just open → cancelled.
    expect([...reached].sort()).toEqual([...TASK_STATUSES].sort());
  });
});

describe("requesting a provider (decision 065)", () => {
  const REQUESTED = ACTORS.otherProvider;
  const requested = (overrides: Partial<TaskLifecycleState>) =>
    task({ status: "requested", requestedProviderId: REQUESTED.id, requestExpiresAt: minutes(60), requestFallback: "open", ...overrides });

  it("lets only the requested, verified provider answer, within the window", () => {
    expect(evaluateTransition("accept_request", requested({}), REQUESTED, NOW)).toEqual(OK);
    expect(evaluateTransition("accept_request", requested({}), ACTORS.assignedProvider, NOW)).toMatchObject({ ok: false, status: 403 });
    expect(evaluateTransition("accept_request", requested({ requestedProviderId: ACTORS.unverifiedUser.id }), ACTORS.unverifiedUser, NOW)).toMatchObject({ ok: false, status: 403 });
    expect(evaluateTransition("accept_request", requested({ requestExpiresAt: NOW }), REQUESTED, NOW)).toMatchObject({ ok: false, status: 409 });
    expect(evaluateTransition("claim", requested({}), ACTORS.assignedProvider, NOW)).toMatchObject({ ok: false, status: 409 });
  });

  it("offers one decline row, the one the poster's choice picks", () => {
    expect(availableTransitions(requested({}), REQUESTED, NOW)).toEqual(["accept_request", "decline_request"]);
    expect(availableTransitions(requested({ requestFallback: "cancel" }), REQUESTED, NOW)).toEqual(["accept_request", "decline_request_cancel"]);
    expect(availableTransitions(requested({}), ACTORS.poster, NOW)).toEqual(["cancel_request"]);
  });

  it("lets the poster cancel a waiting request by its own row, so the requested provider is told", () => {
    expect(evaluateTransition("cancel_request", requested({}), ACTORS.poster, NOW)).toEqual(OK);
    expect(evaluateTransition("cancel_request", requested({}), REQUESTED, NOW)).toMatchObject({ ok: false, status: 403 });
    expect(evaluateTransition("cancel", requested({}), ACTORS.poster, NOW)).toMatchObject({ ok: false, status: 409 });
    expect(findTransition("cancel_request").actions).toContain("notify.provider_request_cancelled");
  });

  it("lapses only once the window has passed, by the row of the poster's choice", () => {
    expect(evaluateTransition("lapse_request", requested({}), "timer", NOW).ok).toBe(false);
    expect(evaluateTransition("lapse_request", requested({ requestExpiresAt: NOW }), "timer", NOW)).toEqual(OK);
    expect(evaluateTransition("lapse_request_cancel", requested({ requestExpiresAt: NOW }), "timer", NOW).ok).toBe(false);
    expect(evaluateTransition("lapse_request_cancel", requested({ requestExpiresAt: NOW, requestFallback: "cancel" }), "timer", NOW)).toEqual(OK);
  });
});
