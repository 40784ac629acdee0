import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { expect, it } from "vitest";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { claimUnlessBooked, payWithCard, postTask as post, startPayment, taskRow, transition } from "../../../../test/fixtures/factory.js";
import { createSandboxGateway } from "../../adapters/payments/sandbox.js";
import { queryRows } from "../../db/client.js";
import { recordSecurityEvent } from "../auth/security-log.js";
import { LATE_CANCEL_HOURS } from "../../../shared/constants.js";
import { lateCancellationFeeCents, priceTask } from "../../../shared/money.js";
import { ACCOUNTS, accountBalances } from "./ledger.js";
import { handleGatewayEvent } from "./gateway-events.js";
import type { PaymentsContext } from "./service.js";

// Model-based test: random sequences of task and money actions against the real app (tasks posted,
// moved and paid through the routes, expired and released by the scheduler's jobs; disputes by
// either party at any paid stage, resolved with 0%, 40% or 100% refunds, from the escrow or the
// guarantee account; late cancellations), with a plain model of where every cent should be. After each step the ledger must balance, no escrow
// may be negative, a settled escrow must be empty, and every account must equal the model.

const t = await useTestApp();
// Late captures are fed to the webhook's handler directly: the sandbox has no webhooks, and the
// handler is the same for every gateway.
const paymentsCtx: PaymentsContext = { ...t.app.ctx, gateway: createSandboxGateway(), taskTransition: t.app.taskTransition, recordSecurityEvent };

const BUDGETS = [2000, 5000, 9999, 10000, 15000] as const;
const HOUR = 3_600_000;

type Status = "open" | "claimed" | "in_progress" | "completed" | "cancelled" | "payment_expired";
type Hold = "none" | "holding" | "disputed" | "released" | "refunded";

interface ModelTask {
  id: string;
  totalCents: number;
  shareCents: number;
  needsWindow: boolean;
  status: Status;
  paid: boolean;
  hold: Hold;
  deadlineMs: number;
  releaseAtMs: number;
  budgetCents: number;
  /** The task's scheduled time: two hours after posting for some, so cancelling it is late. */
  scheduledMs: number | null;
  completedAtMs: number;
  disputeOpen: boolean;
  /** What the poster got back so far: the cap of a guarantee payment (docs/decisions/057). */
  refundedCents: number;
}

interface Model {
  nowMs: number;
  tasks: ModelTask[];
  provider: number;
  revenue: number;
  refunds: number;
  posterPayments: number;
  guarantee: number;
}

/** Users are made per history: the clock runs on across histories and would end older sessions. */
interface Real {
  poster: TestUser;
  provider: TestUser;
  admin: TestUser;
}

type Cmd = fc.AsyncCommand<Model, Real>;

function pick(m: Model, index: number, predicate: (task: ModelTask) => boolean): ModelTask | undefined {
  const matching = m.tasks.filter(predicate);
  return matching.length === 0 ? undefined : matching[index % matching.length];
}

function taskCommand(
  label: string,
  index: number,
  predicate: (task: ModelTask, m: Model) => boolean,
  run: (task: ModelTask, m: Model, r: Real) => Promise<void>,
): Cmd {
  return {
    check: (m) => pick(m, index, (task) => predicate(task, m)) !== undefined,
    async run(m, r) {
      const task = pick(m, index, (x) => predicate(x, m));
      if (!task) throw new Error(`${label}: no task`);
      await run(task, m, r);
      await checkInvariants(m, r);
    },
    toString: () => `${label}(${index})`,
  };
}

function releaseInModel(m: Model, task: ModelTask): void {
  task.hold = "released";
  m.provider += task.shareCents;
  m.revenue += task.totalCents - task.shareCents;
}

function refundInModel(m: Model, task: ModelTask, cents = task.totalCents): void {
  m.refunds += cents;
  task.refundedCents += cents;
}

/** What the task's escrow holds in the model. */
function heldInModel(task: ModelTask): number {
  const settled = task.hold === "released" || task.hold === "refunded" || task.status === "cancelled" || !task.paid;
  return settled ? 0 : task.totalCents;
}

/** Either party may report from payment until 72 hours after completion, one open dispute at a time. */
const mayReport = (task: ModelTask, m: Model) =>
  task.paid && !task.disputeOpen && task.status !== "cancelled" && (task.status !== "completed" || m.nowMs < task.completedAtMs + 72 * HOUR);

/**
 * Moves the clock and runs the scheduler's jobs, as the server's timer does: the release sweeper
 * and the payment-deadline sweeper act on their own, and the model follows with what they should
 * have done. The real tasks must agree.
 */
async function advance(m: Model, ms: number): Promise<void> {
  t.clock.advance(ms);
  m.nowMs += ms;
  await t.app.ctx.scheduler.runAll();
  for (const task of m.tasks) {
    if (task.hold === "holding" && task.releaseAtMs <= m.nowMs) releaseInModel(m, task);
    if (task.status === "claimed" && !task.paid && task.deadlineMs <= m.nowMs) task.status = "payment_expired";
    expect((await taskRow(t, task.id)).status, `task ${task.id} after ${ms} ms`).toBe(task.status);
  }
}

const payWith = (r: Real, task: ModelTask, cardNumber: string) => payWithCard(t, r.poster, task, cardNumber);

async function checkInvariants(m: Model, r: Real): Promise<void> {
  const db = t.database.db;
  expect(await queryRows(db, sql`select transaction_id from ledger_entries group by transaction_id having sum(amount_cents) <> 0`)).toEqual([]);
  expect(
    await queryRows(db, sql`select account from ledger_entries where account like 'escrow:%' group by account having sum(amount_cents) < 0`),
  ).toEqual([]);
  const balances = await accountBalances(t.app.ctx, [...m.tasks.map((task) => ACCOUNTS.escrow(task.id)), ACCOUNTS.providerBalance(r.provider.id)]);
  for (const task of m.tasks) {
    const settled = task.hold === "released" || task.hold === "refunded" || task.status === "cancelled" || !task.paid;
    expect(balances.get(ACCOUNTS.escrow(task.id)), `escrow of ${task.status}/${task.hold}`).toBe(settled ? 0 : task.totalCents);
  }
  expect(balances.get(ACCOUNTS.providerBalance(r.provider.id))).toBe(m.provider);
  // Shared accounts, counted over this history's tasks only (earlier histories share the database).
  const ids = m.tasks.map((task) => sql`${task.id}`);
  const shared = new Map(
    (
      await queryRows<{ account: string; total: string }>(
        db,
        sql`select e.account, sum(e.amount_cents) as total from ledger_entries e
            join ledger_transactions x on x.id = e.transaction_id
            where x.task_id in (${sql.join(ids, sql`, `)}) and e.account not like 'escrow:%' and e.account not like 'provider:%'
            group by e.account`,
      )
    ).map((row) => [row.account, Number(row.total)]),
  );
  expect(shared.get(ACCOUNTS.revenue) ?? 0).toBe(m.revenue);
  expect(shared.get(ACCOUNTS.refunds) ?? 0).toBe(m.refunds);
  expect(shared.get(ACCOUNTS.posterPayments) ?? 0).toBe(m.posterPayments);
  expect(shared.get(ACCOUNTS.guarantee) ?? 0).toBe(m.guarantee);
}

async function postTask(m: Model, r: Real, budget: number, urgent: boolean, soon = false): Promise<void> {
  const urgency = urgent ? "urgent" : "standard";
  const scheduledMs = soon ? m.nowMs + 2 * HOUR : null;
  const row = await post(t, r.poster, { budgetCents: budget, urgency, body: scheduledMs === null ? {} : { scheduledDate: new Date(scheduledMs).toISOString() } });
  const price = priceTask(budget, urgency);
  m.tasks.push({
    id: row.id,
    totalCents: price.totalCents,
    shareCents: price.providerShareCents,
    needsWindow: price.needsApprovalWindow,
    status: "open",
    paid: false,
    hold: "none",
    deadlineMs: 0,
    releaseAtMs: 0,
    budgetCents: budget,
    scheduledMs,
    completedAtMs: 0,
    disputeOpen: false,
    refundedCents: 0,
  });
}

const taskSpec = fc.record({ budget: fc.constantFrom(...BUDGETS), urgent: fc.boolean() });

const isPayable = (task: ModelTask, m: Model) => task.status === "claimed" && !task.paid && task.deadlineMs > m.nowMs;

interface StepParams {
  index: number;
  budget: number;
  urgent: boolean;
  refundPercent: number;
  recover: boolean;
  byProvider: boolean;
  soon: boolean;
  tipCents: number;
  hours: number;
}

/** Each action with its weight: the happy path's steps weigh more so histories reach completion. */
const ACTIONS: [number, (p: StepParams) => Cmd][] = [
  [
    2,
    (p) => ({
      check: (m) => m.tasks.length < 6,
      async run(m, r) {
        await postTask(m, r, p.budget, p.urgent, p.soon);
        await checkInvariants(m, r);
      },
      toString: () => `post(${p.budget},${p.urgent ? "urgent" : "standard"}${p.soon ? ",soon" : ""})`,
    }),
  ],
  [
    3,
    (p) =>
      taskCommand("claim", p.index, (task) => task.status === "open", async (task, m, r) => {
        if (!(await claimUnlessBooked(t, task.id, r.provider))) return;
        task.status = "claimed";
        task.deadlineMs = m.nowMs + 30 * 60_000;
      }),
  ],
  [
    4,
    (p) =>
      taskCommand("pay", p.index, isPayable, async (task, m, r) => {
        expect((await payWith(r, task, "4242424242424242")).statusCode).toBe(200);
        task.paid = true;
        m.posterPayments -= task.totalCents;
      }),
  ],
  [
    1,
    (p) =>
      taskCommand("decline", p.index, isPayable, async (task, _m, r) => {
        expect((await payWith(r, task, "4000000000000002")).statusCode).toBe(402);
      }),
  ],
  [
    1,
    (p) =>
      taskCommand("expire", p.index, (task) => task.status === "claimed" && !task.paid, async (task, m) => {
        await advance(m, Math.max(task.deadlineMs - m.nowMs, 0) + 1000);
        expect(task.status).toBe("payment_expired");
      }),
  ],
  [
    2,
    (p) =>
      // The gateway's "succeeded" arrives after the deadline: recorded and refunded at once. The poster
      // reactivates and the task is claimed again, so a later "pay" needs a new payment and its own capture.
      taskCommand("late-capture", p.index, isPayable, async (task, m, r) => {
        const { payment } = await startPayment(t, r.poster, task);
        await advance(m, task.deadlineMs - m.nowMs + 1000);
        if (!payment.gatewayRef) throw new Error("late-capture: no intent");
        await handleGatewayEvent(paymentsCtx, {
          id: `evt_${randomUUID()}`,
          type: "payment_intent.succeeded",
          intentId: payment.gatewayRef,
          metadata: {},
          failureMessage: null,
          cardLast4: null,
          account: null,
        });
        m.posterPayments -= task.totalCents;
        refundInModel(m, task);
        expect(task.status).toBe("payment_expired");
        expect(await transition(t, "reactivate", task.id, r.poster)).not.toBeNull();
        if (!(await claimUnlessBooked(t, task.id, r.provider))) {
          task.status = "open";
          return;
        }
        task.status = "claimed";
        task.deadlineMs = m.nowMs + 30 * 60_000;
      }),
  ],
  [
    1,
    (p) =>
      taskCommand("reactivate", p.index, (task) => task.status === "payment_expired", async (task, _m, r) => {
        expect(await transition(t, "reactivate", task.id, r.poster)).not.toBeNull();
        task.status = "open";
      }),
  ],
  [
    1,
    (p) =>
      // An open dispute holds the task: cancelling waits for its resolution (docs/product.md, Disputes).
      taskCommand("cancel", p.index, (task) => (task.status === "open" || task.status === "claimed") && !task.disputeOpen, async (task, m, r) => {
        expect(await transition(t, "cancel", task.id, r.poster)).not.toBeNull();
        task.status = "cancelled";
        const late = task.paid && task.scheduledMs !== null && task.scheduledMs - m.nowMs < LATE_CANCEL_HOURS * HOUR;
        const fee = late ? lateCancellationFeeCents(task.budgetCents, task.totalCents) : 0;
        m.provider += fee;
        if (task.paid) refundInModel(m, task, task.totalCents - fee);
      }),
  ],
  [
    4,
    (p) =>
      taskCommand("start", p.index, (task) => task.status === "claimed" && task.paid, async (task, _m, r) => {
        expect(await transition(t, "start", task.id, r.provider)).not.toBeNull();
        task.status = "in_progress";
      }),
  ],
  [
    4,
    (p) =>
      taskCommand("complete", p.index, (task) => task.status === "in_progress", async (task, m, r) => {
        expect(await transition(t, "complete", task.id, r.provider)).not.toBeNull();
        task.status = "completed";
        task.completedAtMs = m.nowMs;
        if (task.disputeOpen) task.hold = "disputed";
        else if (task.needsWindow) {
          task.hold = "holding";
          task.releaseAtMs = m.nowMs + 24 * HOUR;
        } else releaseInModel(m, task);
      }),
  ],
  [
    2,
    (p) =>
      taskCommand("approve", p.index, (task) => task.hold === "holding", async (task, m, r) => {
        expect((await call(t, r.poster, { method: "POST", url: `/api/tasks/${task.id}/approve-release` })).statusCode).toBe(200);
        releaseInModel(m, task);
      }),
  ],
  [
    2,
    (p) =>
      taskCommand(`dispute-by-${p.byProvider ? "provider" : "poster"}`, p.index, mayReport, async (task, _m, r) => {
        const payload = { reason: "not_done", description: "The work was not finished" };
        const res = await call(t, p.byProvider ? r.provider : r.poster, { method: "POST", url: `/api/tasks/${task.id}/report-problem`, payload });
        expect(res.statusCode, res.body).toBe(200);
        task.disputeOpen = true;
        if (task.hold === "holding") task.hold = "disputed";
      }),
  ],
  [
    2,
    (p) =>
      taskCommand(`resolve-${p.refundPercent}%${p.recover ? "-recover" : ""}`, p.index, (task) => task.disputeOpen, async (task, m, r) => {
        const held = heldInModel(task);
        const most = held > 0 ? held : task.totalCents - task.refundedCents;
        const refund = Math.floor((most * p.refundPercent) / 100);
        const payload = { refund: refund / 100, reason: "Checked", recoverFromProvider: p.recover };
        const res = await call(t, r.admin, { method: "POST", url: `/api/admin/disputes/${task.id}/resolve`, payload });
        expect(res.statusCode, res.body).toBe(200);
        task.disputeOpen = false;
        if (held > 0) {
          const released = held - refund;
          const share = released >= held ? task.shareCents : Math.floor((task.shareCents * released) / held);
          refundInModel(m, task, refund);
          m.provider += share;
          m.revenue += released - share;
          if (task.hold === "disputed") task.hold = released > 0 ? "released" : "refunded";
          if (task.status === "claimed" || task.status === "in_progress") task.status = "cancelled";
        } else if (refund > 0) {
          refundInModel(m, task, refund);
          m.guarantee -= refund;
          if (p.recover) {
            m.guarantee += refund;
            m.provider -= refund;
          }
        }
      }),
  ],
  [
    1,
    (p) =>
      taskCommand(`tip-${p.tipCents}`, p.index, (task) => task.status === "completed", async (task, m, r) => {
        const res = await call(t, r.poster, { method: "POST", url: `/api/tasks/${task.id}/tip`, payload: { amount: p.tipCents / 100, idempotencyKey: randomUUID() } });
        expect(res.statusCode).toBe(200);
        m.provider += p.tipCents;
        m.posterPayments -= p.tipCents;
      }),
  ],
  [
    2,
    (p) => ({
      check: () => true,
      async run(m, r) {
        await advance(m, p.hours * HOUR);
        await checkInvariants(m, r);
      },
      toString: () => `advance(${p.hours}h)`,
    }),
  ],
];

const TOTAL_WEIGHT = ACTIONS.reduce((sum, [weight]) => sum + weight, 0);

function buildStep(roll: number, params: StepParams): Cmd {
  let rest = roll;
  for (const [weight, build] of ACTIONS) {
    if (rest < weight) return build(params);
    rest -= weight;
  }
  throw new Error(`roll ${roll} out of range`);
}

// One arbitrary picks the action by an integer roll: fc.oneof would favour its first options.
const step = fc
  .tuple(
    fc.integer({ min: 0, max: TOTAL_WEIGHT - 1 }),
    fc.record({
      index: fc.nat(),
      budget: fc.constantFrom(...BUDGETS),
      urgent: fc.boolean(),
      refundPercent: fc.constantFrom(0, 40, 100),
      recover: fc.boolean(),
      byProvider: fc.boolean(),
      soon: fc.boolean(),
      tipCents: fc.integer({ min: 100, max: 5000 }),
      hours: fc.constantFrom(1, 25),
    }),
  )
  .map(([roll, params]) => buildStep(roll, params));

it("keeps the ledger balanced and equal to the model over random task histories", async () => {
  await fc.assert(
    // Each history starts with two tasks so that early steps have something to act on.
    fc.asyncProperty(fc.tuple(taskSpec, taskSpec), fc.commands([step], { maxCommands: 25, size: "max" }), async (initial, cmds) => {
      const poster = await createUser(t);
      const provider = await createUser(t, { verifiedProvider: true });
      const real: Real = { poster, provider, admin: await createUser(t, { role: "admin" }) };
      const model: Model = { nowMs: t.clock.now().getTime(), tasks: [], provider: 0, revenue: 0, refunds: 0, posterPayments: 0, guarantee: 0 };
      for (const spec of initial) await postTask(model, real, spec.budget, spec.urgent);
      // The second task starts claimed and paid, so short histories still reach the escrow's later states.
      const paidTask = model.tasks[1];
      if (!paidTask) throw new Error("no initial task");
      expect(await transition(t, "claim", paidTask.id, provider)).not.toBeNull();
      expect((await payWith(real, paidTask, "4242424242424242")).statusCode).toBe(200);
      Object.assign(paidTask, { status: "claimed", paid: true, deadlineMs: model.nowMs + 30 * 60_000 });
      model.posterPayments -= paidTask.totalCents;
      await fc.asyncModelRun(() => ({ model, real }), cmds);
    }),
    { numRuns: 30, endOnFailure: true },
  );
}, 240_000);
