import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, createUser, useTestApp, type TestApp, type TestUser } from "../../../../test/create-test-app.js";
import { queryRows } from "../../db/client.js";
import { notifications } from "../../db/schema/chat.js";
import { escrowHolds, payments, payouts, tips } from "../../db/schema/payments.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { tasks } from "../../db/schema/tasks.js";
import { auditLog } from "../../db/schema/users.js";
import { disputeSplit, priceTask } from "../../../shared/money.js";
import type { Earnings } from "../../../shared/payments.js";
import type { YearlyStatement } from "../../../shared/receipts.js";
import { createProvider, reportProblem, taskAt, transition } from "../../../../test/fixtures/factory.js";
import { ACCOUNTS, accountBalance } from "./ledger.js";

const t = await useTestApp();

const CARD = { cardNumber: "4242 4242 4242 4242", expMonth: 12, expYear: 2030, cvc: "123" };

const claimedTask = (budgetCents: number, urgency: "standard" | "urgent" = "standard") => taskAt(t, "claimed", { budgetCents, urgency });

async function intent(user: TestUser, taskId: string, amount: number) {
  return call(t, user, { method: "POST", url: "/api/create-payment-intent", payload: { amount, taskId } });
}

async function pay(user: TestUser, taskId: string, totalCents: number, card = CARD) {
  const res = await intent(user, taskId, totalCents / 100);
  expect(res.statusCode).toBe(200);
  const { clientSecret } = res.json<{ clientSecret: string }>();
  return call(t, user, { method: "POST", url: "/api/sandbox/payments/confirm", payload: { clientSecret, ...card } });
}

const paidAndCompleted = (budgetCents: number) => taskAt(t, "completed", { budgetCents });

async function taskRow(id: string) {
  const [row] = await t.database.db.select().from(tasks).where(eq(tasks.id, id));
  return row;
}

const balance = (account: string) => accountBalance(t.app.ctx, account);

describe("create-payment-intent", () => {
  it("refuses strangers, wrong states and wrong amounts, storing nothing", async () => {
    const { poster, provider, task } = await claimedTask(5000);
    expect((await call(t, null, { method: "POST", url: "/api/create-payment-intent", payload: { amount: 1, taskId: task.id } })).statusCode).toBe(401);
    const other = await intent(provider, task.id, task.totalCents / 100);
    expect(other.statusCode).toBe(403);
    const wrong = await intent(poster, task.id, task.totalCents / 100 + 1);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/^amount: must equal the task total of \$54\.50$/);
    const bad = await intent(poster, task.id, 12.345);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/amount/);
    const badId = await call(t, poster, { method: "POST", url: "/api/create-payment-intent", payload: { amount: 1, taskId: "nope" } });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toBe("taskId: taskId must be a UUID");
    expect(await t.database.db.select().from(payments).where(eq(payments.taskId, task.id))).toHaveLength(0);

    const { task: open } = await taskAt(t, "open", { poster, budgetCents: 5000 });
    const refused = await intent(poster, open.id, open.totalCents / 100);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe("Only a claimed task can be paid");
  });

  it("is idempotent: a second call answers the same client secret", async () => {
    const { poster, task } = await claimedTask(5000);
    const first = await intent(poster, task.id, task.totalCents / 100);
    const second = await intent(poster, task.id, task.totalCents / 100);
    expect(first.statusCode).toBe(200);
    expect(second.json().clientSecret).toBe(first.json().clientSecret);
    expect(await t.database.db.select().from(payments).where(eq(payments.taskId, task.id))).toHaveLength(1);
  });

  it("answers in the task table's words why a task cannot be paid (the rule of the capture's own 'pay')", async () => {
    const { poster, task } = await taskAt(t, "in_progress");
    const res = await intent(poster, task.id, task.totalCents / 100);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe("This task has already been paid");
    const { poster: expiredPoster, task: expired } = await taskAt(t, "payment_expired");
    const late = await intent(expiredPoster, expired.id, expired.totalCents / 100);
    expect(late.json().message).toBe("Only a claimed task can be paid");
  });

  it("refuses once the payment deadline has passed", async () => {
    const { poster, task } = await claimedTask(5000);
    t.clock.advance(31 * 60_000);
    const res = await intent(poster, task.id, task.totalCents / 100);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe("The payment window for this task has closed");
  });
});

describe("sandbox card confirmation", () => {
  it("checks the card like a processor and keeps the task unpaid on a decline", async () => {
    const { poster, task } = await claimedTask(5000);
    const cases: [typeof CARD, number, string][] = [
      [{ ...CARD, cardNumber: "4242 4242 4242 4241" }, 400, "cardNumber: Your card number is invalid."],
      [{ ...CARD, expMonth: 1, expYear: 2026 }, 400, "expYear: Your card's expiration date is in the past."],
      [{ ...CARD, cvc: "12" }, 400, "cvc: CVC must be 3 or 4 digits"],
      [{ ...CARD, cardNumber: "4000 0000 0000 0002" }, 402, "Your card was declined."],
      [{ ...CARD, cardNumber: "4000 0000 0000 9995" }, 402, "Your card has insufficient funds."],
    ];
    for (const [card, status, message] of cases) {
      const res = await pay(poster, task.id, task.totalCents, card);
      expect(res.statusCode, message).toBe(status);
      expect(res.json().message).toBe(message);
    }
    expect((await taskRow(task.id))?.paymentCapturedAt).toBeNull();
    expect(await balance(ACCOUNTS.escrow(task.id))).toBe(0);
  });

  it("captures a good card into escrow, tells the provider, and refuses a second capture", async () => {
    const { poster, provider, task } = await claimedTask(5000);
    const stranger = await createUser(t);
    const res = await intent(poster, task.id, task.totalCents / 100);
    const { clientSecret } = res.json<{ clientSecret: string }>();
    const denied = await call(t, stranger, { method: "POST", url: "/api/sandbox/payments/confirm", payload: { clientSecret, ...CARD } });
    expect(denied.statusCode).toBe(403);
    const ok = await call(t, poster, { method: "POST", url: "/api/sandbox/payments/confirm", payload: { clientSecret, ...CARD } });
    expect(ok.statusCode).toBe(200);
    expect((await taskRow(task.id))?.paymentCapturedAt?.toISOString()).toBe(t.clock.now().toISOString());
    expect(await balance(ACCOUNTS.escrow(task.id))).toBe(task.totalCents);
    const notes = await t.database.db.select().from(notifications).where(eq(notifications.userId, provider.id));
    expect(notes.map((n) => n.kind)).toContain("payment_received");
    const again = await call(t, poster, { method: "POST", url: "/api/sandbox/payments/confirm", payload: { clientSecret, ...CARD } });
    expect(again.statusCode).toBe(409);
    expect((await intent(poster, task.id, task.totalCents / 100)).statusCode).toBe(409);
  });

  it("captures once when the same payment is confirmed twice at the same time", async () => {
    const { poster, task } = await claimedTask(5000);
    const { clientSecret } = (await intent(poster, task.id, task.totalCents / 100)).json<{ clientSecret: string }>();
    const confirm = () => call(t, poster, { method: "POST", url: "/api/sandbox/payments/confirm", payload: { clientSecret, ...CARD } });
    const results = await Promise.all([confirm(), confirm(), confirm()]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await balance(ACCOUNTS.escrow(task.id))).toBe(task.totalCents);
    const [row] = await queryRows<{ n: string }>(t.database.db, sql`select count(*) as n from ledger_transactions where task_id = ${task.id}`);
    expect(Number(row?.n)).toBe(1);
  });

  it("refuses to run in production unless allowed", async () => {
    const { createTestApp } = await import("../../../../test/create-test-app.js");
    const prod: TestApp = await createTestApp({ NODE_ENV: "production" });
    try {
      const user = await createUser(prod);
      const res = await call(prod, user, {
        method: "POST",
        url: "/api/sandbox/payments/confirm",
        payload: { clientSecret: "sandbox_x", ...CARD },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe("Sandbox payments are turned off");
    } finally {
      await prod.close();
    }
  });
});

describe("release", () => {
  it("releases a task under $100 at once: 85% to the provider, the rest and the fee to the platform", async () => {
    const revenueBefore = await balance(ACCOUNTS.revenue);
    const { provider, task } = await paidAndCompleted(5000);
    expect(await balance(ACCOUNTS.escrow(task.id))).toBe(0);
    expect(await balance(ACCOUNTS.providerBalance(provider.id))).toBe(4250);
    expect((await balance(ACCOUNTS.revenue)) - revenueBefore).toBe(task.totalCents - 4250);
    const [hold] = await t.database.db.select().from(escrowHolds).where(eq(escrowHolds.taskId, task.id));
    expect(hold?.status).toBe("released");
  });

  it("shows a task's money only to its poster, its provider and admins", async () => {
    const { poster, provider, task } = await paidAndCompleted(5000);
    const url = `/api/tasks/${task.id}/escrow`;
    const stranger = await createUser(t);
    expect((await call(t, stranger, { method: "GET", url })).statusCode).toBe(403);
    expect((await call(t, null, { method: "GET", url })).statusCode).toBe(401);
    expect((await call(t, provider, { method: "GET", url })).json()).toMatchObject({ paid: true, status: "released", providerShare: 42.5 });
    expect((await call(t, poster, { method: "GET", url })).json()).toMatchObject({ total: task.totalCents / 100 });
  });

  it("holds $100 or more for 24 hours; only the poster approves early", async () => {
    const { poster, provider, task } = await paidAndCompleted(15000);
    expect(await balance(ACCOUNTS.escrow(task.id))).toBe(task.totalCents);
    const url = `/api/tasks/${task.id}/approve-release`;
    expect((await call(t, provider, { method: "POST", url })).statusCode).toBe(403);
    const admin = await createUser(t, { role: "admin" });
    expect((await call(t, admin, { method: "POST", url })).statusCode).toBe(403);
    expect((await call(t, poster, { method: "POST", url })).statusCode).toBe(200);
    expect(await balance(ACCOUNTS.providerBalance(provider.id))).toBe(12750);
    const again = await call(t, poster, { method: "POST", url });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("The payment has already been released");
  });

  it("releases by the sweeper when the window ends", async () => {
    const { provider, task } = await paidAndCompleted(20000);
    t.clock.advance(23 * 3_600_000);
    await t.app.ctx.scheduler.runAll();
    expect(await balance(ACCOUNTS.providerBalance(provider.id))).toBe(0);
    t.clock.advance(3_600_000);
    await t.app.ctx.scheduler.runAll();
    expect(await balance(ACCOUNTS.providerBalance(provider.id))).toBe(17000);
    expect(await balance(ACCOUNTS.escrow(task.id))).toBe(0);
  });

  it("keeps a disputed task held until an admin resolves it with a reason, logged in the audit log", async () => {
    const { poster, provider, task } = await paidAndCompleted(15000);
    const url = `/api/tasks/${task.id}/report-problem`;
    const stranger = await createUser(t);
    expect((await call(t, stranger, { method: "POST", url, payload: { reason: "not_done", description: "Nobody came to the door" } })).statusCode).toBe(403);
    const empty = await call(t, poster, { method: "POST", url, payload: { reason: "not_done", description: "   " } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fieldErrors).toMatchObject({ description: expect.any(String) });
    expect((await call(t, poster, { method: "POST", url, payload: { reason: "not_done", description: "Nobody came to the door" } })).statusCode).toBe(200);
    t.clock.advance(25 * 3_600_000);
    await t.app.ctx.scheduler.runAll();
    expect(await balance(ACCOUNTS.escrow(task.id))).toBe(task.totalCents);

    const resolveUrl = `/api/admin/disputes/${task.id}/resolve`;
    expect((await call(t, poster, { method: "POST", url: resolveUrl, payload: { refund: task.totalCents / 100, reason: "ok" } })).statusCode).toBe(403);
    const admin = await createUser(t, { role: "admin" });
    const noReason = await call(t, admin, { method: "POST", url: resolveUrl, payload: { refund: task.totalCents / 100, reason: "" } });
    expect(noReason.statusCode).toBe(400);
    const finance = await call(t, admin, { method: "GET", url: "/api/admin/finance" });
    expect(finance.json().disputes.map((d: { taskId: string }) => d.taskId)).toContain(task.id);
    const ok = await call(t, admin, { method: "POST", url: resolveUrl, payload: { refund: task.totalCents / 100, reason: "Provider did not show up" } });
    expect(ok.statusCode).toBe(200);
    expect(await balance(ACCOUNTS.escrow(task.id))).toBe(0);
    expect(await balance(ACCOUNTS.providerBalance(provider.id))).toBe(0);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, task.id));
    expect(audit).toMatchObject([{ actorId: admin.id, action: "dispute.resolve", targetType: "task", reason: "Provider did not show up" }]);
    expect((await call(t, admin, { method: "POST", url: resolveUrl, payload: { refund: 0, reason: "again" } })).statusCode).toBe(409);
  });
});

describe("cancel", () => {
  it("refunds the poster in full, fee included, when a paid task is cancelled", async () => {
    const { poster, task } = await claimedTask(4000, "urgent");
    expect((await pay(poster, task.id, task.totalCents)).statusCode).toBe(200);
    const refundsBefore = await balance(ACCOUNTS.refunds);
    expect(await transition(t, "cancel", task.id, poster)).not.toBeNull();
    expect(await balance(ACCOUNTS.escrow(task.id))).toBe(0);
    expect((await balance(ACCOUNTS.refunds)) - refundsBefore).toBe(task.totalCents);
    const [payment] = await t.database.db.select().from(payments).where(eq(payments.taskId, task.id));
    expect(payment?.status).toBe("refunded");
  });
});

describe("tips", () => {
  it("gives the provider 100% of a tip; only the poster tips a completed task", async () => {
    const { poster, provider, task } = await paidAndCompleted(5000);
    const url = `/api/tasks/${task.id}/tip`;
    expect((await call(t, provider, { method: "POST", url, payload: { amount: 5, idempotencyKey: randomUUID() } })).statusCode).toBe(403);
    const small = await call(t, poster, { method: "POST", url, payload: { amount: 0.5, idempotencyKey: randomUUID() } });
    expect(small.statusCode).toBe(400);
    expect(small.json().message).toBe("amount: Tip must be at least $1");
    expect((await call(t, poster, { method: "POST", url, payload: { amount: 1000.01, idempotencyKey: randomUUID() } })).statusCode).toBe(400);
    const keyless = await call(t, poster, { method: "POST", url, payload: { amount: 5 } });
    expect(keyless.statusCode).toBe(400);
    expect(keyless.json().message).toBe("idempotencyKey: idempotencyKey must be a UUID");
    expect((await call(t, poster, { method: "POST", url, payload: { amount: 5, idempotencyKey: "twice" } })).statusCode).toBe(400);
    expect(await t.database.db.select().from(tips).where(eq(tips.taskId, task.id))).toHaveLength(0);
    const ok = await call(t, poster, { method: "POST", url, payload: { amount: 7.5, idempotencyKey: randomUUID() } });
    expect(ok.json()).toEqual({ status: "succeeded", clientSecret: null });
    expect(await balance(ACCOUNTS.providerBalance(provider.id))).toBe(4250 + 750);

    const early = await claimedTask(5000);
    const refused = await call(t, early.poster, { method: "POST", url: `/api/tasks/${early.task.id}/tip`, payload: { amount: 5, idempotencyKey: randomUUID() } });
    expect(refused.statusCode).toBe(409);
  });

  it("charges a double-submitted tip once; a new key tips again", async () => {
    const { poster, provider, task } = await paidAndCompleted(5000);
    const url = `/api/tasks/${task.id}/tip`;
    const payload = { amount: 6, idempotencyKey: randomUUID() };
    const results = await Promise.all([call(t, poster, { method: "POST", url, payload }), call(t, poster, { method: "POST", url, payload })]);
    expect(results.map((r) => [r.statusCode, r.json()])).toEqual([
      [200, { status: "succeeded", clientSecret: null }],
      [200, { status: "succeeded", clientSecret: null }],
    ]);
    expect(await t.database.db.select().from(tips).where(eq(tips.taskId, task.id))).toHaveLength(1);
    const [tipTransactions] = await queryRows<{ n: string }>(
      t.database.db,
      sql`select count(*) as n from ledger_transactions where task_id = ${task.id} and kind = 'tip'`,
    );
    expect(Number(tipTransactions?.n)).toBe(1);
    expect(await balance(ACCOUNTS.providerBalance(provider.id))).toBe(4250 + 600);

    const reused = await call(t, poster, { method: "POST", url, payload: { ...payload, amount: 9 } });
    expect(reused.statusCode).toBe(409);
    expect(reused.json().message).toBe("idempotencyKey: this key was already used for a different tip");
    const again = await call(t, poster, { method: "POST", url, payload: { amount: 6, idempotencyKey: randomUUID() } });
    expect(again.statusCode).toBe(200);
    expect(await balance(ACCOUNTS.providerBalance(provider.id))).toBe(4250 + 1200);
  });
});

describe("earnings", () => {
  it("follows the ledger: refunded tasks earn nothing, and a release shows when it happened", async () => {
    const provider = await createProvider(t);
    const admin = await createUser(t, { role: "admin" });
    const rowOf = async (taskId: string) => {
      const res = await call(t, provider, { method: "GET", url: "/api/payments/earnings" });
      expect(res.statusCode).toBe(200);
      return res.json<Earnings>().tasks.find((row) => row.taskId === taskId);
    };
    const none = { tips: 0, releaseAt: null, movedAt: null, refundedAt: null };

    const working = await taskAt(t, "in_progress", { provider, budgetCents: 5000 });
    expect(await rowOf(working.task.id)).toMatchObject({ ...none, status: "in_progress", earned: 42.5, moved: false });

    // The case: a $120 task paid, then cancelled by its poster, showed "In progress, $102.00".
    const cancelled = await taskAt(t, "paid", { provider, budgetCents: 12000 });
    t.clock.advance(60_000);
    expect(await transition(t, "cancel", cancelled.task.id, cancelled.poster)).toMatchObject({ status: "cancelled" });
    expect(await rowOf(cancelled.task.id)).toMatchObject({ ...none, status: "refunded", earned: 0, moved: true, refundedAt: t.clock.now().toISOString() });

    const held = await taskAt(t, "completed", { provider, budgetCents: 15000 });
    const dueAt = new Date(t.clock.now().getTime() + 24 * 3_600_000).toISOString();
    expect(await rowOf(held.task.id)).toMatchObject({ ...none, status: "held", earned: 127.5, releaseAt: dueAt });

    // Approved an hour after completion: the row shows that hour, not the 24-hour release it replaced.
    const early = await taskAt(t, "completed", { provider, budgetCents: 15000 });
    t.clock.advance(3_600_000);
    expect((await call(t, early.poster, { method: "POST", url: `/api/tasks/${early.task.id}/approve-release` })).statusCode).toBe(200);
    expect(await rowOf(early.task.id)).toMatchObject({ ...none, status: "released", earned: 127.5, moved: true, movedAt: t.clock.now().toISOString() });

    const disputed = await taskAt(t, "disputed", { provider, budgetCents: 15000 });
    expect(await rowOf(disputed.task.id)).toMatchObject({ ...none, status: "under_review", earned: 127.5 });
    const totals = (await call(t, provider, { method: "GET", url: "/api/payments/earnings" })).json<Earnings>();
    expect(totals).toMatchObject({ held: 255, available: 127.5 });
    t.clock.advance(60_000);
    const resolveUrl = `/api/admin/disputes/${disputed.task.id}/resolve`;
    const refundAll = { refund: disputed.task.totalCents / 100, reason: "Nobody came" };
    expect((await call(t, admin, { method: "POST", url: resolveUrl, payload: refundAll })).statusCode).toBe(200);
    expect(await rowOf(disputed.task.id)).toMatchObject({ ...none, status: "refunded", earned: 0, refundedAt: t.clock.now().toISOString() });
  });
});

describe("earnings and the yearly statement after an admin's split", () => {
  const resolve = (admin: TestUser, taskId: string, refundCents: number) =>
    call(t, admin, { method: "POST", url: `/api/admin/disputes/${taskId}/resolve`, payload: { refund: refundCents / 100, reason: "Part of the work was done." } });

  async function settledByAdmin(refundOf: (totalCents: number) => number) {
    const provider = await createProvider(t);
    const admin = await createUser(t, { role: "admin" });
    // The tester's case: $60 standard ($65.30 paid), started, then a problem reported by the poster.
    const { task, poster } = await taskAt(t, "in_progress", { provider, budgetCents: 6000 });
    await reportProblem(t, poster, task);
    const before = (await call(t, provider, { method: "GET", url: "/api/payments/earnings" })).json<Earnings>();
    const refundCents = refundOf(task.totalCents);
    t.clock.advance(60_000);
    expect((await resolve(admin, task.id, refundCents)).statusCode).toBe(200);
    const after = (await call(t, provider, { method: "GET", url: "/api/payments/earnings" })).json<Earnings>();
    const statement = await call(t, provider, { method: "GET", url: `/api/payments/statements/${t.clock.now().getUTCFullYear()}` });
    return { task, poster, provider, before, after, statement, refundCents, price: priceTask(6000, "standard") };
  }

  it("reads a started task under dispute as held by the dispute, not in progress", async () => {
    const { task, before } = await settledByAdmin(() => 0);
    expect(before.tasks.find((row) => row.taskId === task.id)).toMatchObject({ status: "under_review", earned: 51, refundedToPoster: 0 });
    expect(before.held).toBe(51);
  });

  it("after a $20 refund shows the $35.37 received, and a statement whose fee is 15% of its gross", async () => {
    const { task, after, statement } = await settledByAdmin(() => 2000);
    const now = t.clock.now().toISOString();
    expect(after.tasks.find((row) => row.taskId === task.id)).toMatchObject({ status: "settled", earned: 35.37, refundedToPoster: 20, movedAt: now, refundedAt: now });
    expect(after).toMatchObject({ held: 0, available: 35.37 });
    // floor(6000 × 4530 / 6530) = 4162 of work value released; the provider's 3537 leaves 625 (15.0%).
    expect(statement.json<YearlyStatement>()).toMatchObject({ gross: 41.62, fees: 6.25, lateFees: 0, recovered: 0, tips: 0, net: 35.37, transactions: 1 });
  });

  it.each([
    { refunded: "0%", part: 0, status: "settled", settlement: "provider_paid" },
    { refunded: "40%", part: 0.4, status: "settled", settlement: "partly_refunded" },
    { refunded: "100%", part: 1, status: "refunded", settlement: "refunded" },
  ] as const)("after a $refunded refund reads what the ledger moved, gross - fees = net", async ({ part, status, settlement }) => {
    const { task, poster, provider, after, statement, refundCents, price } = await settledByAdmin((total) => Math.round(total * part));
    const split = disputeSplit(price, price.totalCents, refundCents);
    expect(after.tasks.find((row) => row.taskId === task.id)).toMatchObject({ status, earned: split.providerShareCents / 100, refundedToPoster: refundCents / 100 });
    expect(await balance(ACCOUNTS.providerBalance(provider.id))).toBe(split.providerShareCents);
    // The task ended as cancelled; its insiders read how the resolution settled it, on the task page and both dashboards.
    expect((await taskRow(task.id))?.status).toBe("cancelled");
    expect((await call(t, provider, { method: "GET", url: `/api/tasks/${task.id}` })).json()).toMatchObject({ status: "cancelled", settlement });
    const listed = async (who: TestUser, url: string) => (await call(t, who, { method: "GET", url })).json<{ id: string; settlement: string | null }[]>().find((row) => row.id === task.id);
    expect(await listed(poster, "/api/tasks/my-tasks")).toMatchObject({ settlement });
    expect(await listed(provider, "/api/tasks/my-jobs")).toMatchObject({ settlement });
    const stranger = await createUser(t);
    expect((await call(t, stranger, { method: "GET", url: `/api/tasks/${task.id}` })).json()).not.toHaveProperty("settlement");
    if (split.providerShareCents === 0) {
      // Nothing reached the provider's balance, so the year has no statement.
      expect(statement.statusCode).toBe(404);
      return;
    }
    const figures = statement.json<YearlyStatement>();
    expect(Math.round((figures.gross - figures.fees) * 100)).toBe(Math.round(figures.net * 100));
    expect(figures.net).toBe(split.providerShareCents / 100);
    // The fee is the platform's commission on the released part: 15% of its gross, to the cent.
    expect(Math.abs(figures.fees * 100 - Math.round(figures.gross * 15))).toBeLessThanOrEqual(1);
  });
});

describe("payouts", () => {
  it("onboards an approved provider, answers 'already exists', and pays out what waited", async () => {
    const { provider } = await paidAndCompleted(5000);
    const plain = await createUser(t);
    expect((await call(t, plain, { method: "POST", url: "/api/stripe/connect/account" })).statusCode).toBe(403);
    expect((await call(t, provider, { method: "POST", url: "/api/stripe/connect/account-link" })).statusCode).toBe(409);
    expect((await call(t, provider, { method: "POST", url: "/api/stripe/connect/account" })).statusCode).toBe(201);
    const again = await call(t, provider, { method: "POST", url: "/api/stripe/connect/account" });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain("already exists");
    const link = await call(t, provider, { method: "POST", url: "/api/stripe/connect/account-link" });
    expect(link.json()).toEqual({ url: "/payouts/sandbox-onboarding" });

    await t.app.ctx.scheduler.runAll();
    expect(await balance(ACCOUNTS.providerBalance(provider.id))).toBe(4250);
    expect((await call(t, provider, { method: "POST", url: "/api/sandbox/payouts/complete-onboarding" })).statusCode).toBe(200);
    const [profile] = await t.database.db.select().from(providerProfiles).where(eq(providerProfiles.userId, provider.id));
    expect(profile).toMatchObject({ payoutsEnabled: true, stripeOnboardingComplete: true });
    expect(await balance(ACCOUNTS.providerBalance(provider.id))).toBe(0);
    const rows = await t.database.db.select().from(payouts).where(eq(payouts.providerId, provider.id));
    expect(rows).toMatchObject([{ amountCents: 4250, status: "paid" }]);

    const earnings = await call(t, provider, { method: "GET", url: "/api/payments/earnings" });
    expect(earnings.json()).toMatchObject({ held: 0, available: 0, paidOut: 42.5, payoutsEnabled: true });
  });

  it("pays out later releases through the payout job", async () => {
    const { poster, provider, task } = await paidAndCompleted(15000);
    await call(t, provider, { method: "POST", url: "/api/stripe/connect/account" });
    await call(t, provider, { method: "POST", url: "/api/sandbox/payouts/complete-onboarding" });
    const held = await call(t, provider, { method: "GET", url: "/api/payments/earnings" });
    expect(held.json()).toMatchObject({ held: 127.5, available: 0 });
    await call(t, poster, { method: "POST", url: `/api/tasks/${task.id}/approve-release` });
    await t.app.ctx.scheduler.runAll();
    expect(await balance(ACCOUNTS.payouts)).toBeGreaterThanOrEqual(12750);
    expect(await balance(ACCOUNTS.providerBalance(provider.id))).toBe(0);
  });
});

describe("ledger guard", () => {
  it("refuses to change or delete a ledger entry", async () => {
    await paidAndCompleted(5000);
    const failure = (query: Promise<unknown>) =>
      query.then(
        () => "succeeded",
        (err: Error) => String((err.cause as Error | undefined)?.message ?? err.message),
      );
    expect(await failure(t.database.db.execute(sql`update ledger_entries set amount_cents = 0`))).toBe("ledger entries are append-only");
    expect(await failure(t.database.db.execute(sql`delete from ledger_entries`))).toBe("ledger entries are append-only");
  });
});
