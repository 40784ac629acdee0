import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { TaskDisputeAnswer } from "../../../shared/disputes.js";
import { findMoneyTransition, type MoneyTransitionDefinition } from "../../../shared/money-lifecycle.js";
import { priceTask } from "../../../shared/money.js";
import { OPEN_DISPUTE_MESSAGE } from "../../../shared/task-lifecycle.js";
import { notifications } from "../../db/schema/chat.js";
import { ledgerEntries, ledgerTransactions } from "../../db/schema/payments.js";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { createProvider, pay, reportProblem, taskAt, taskRow, transition } from "../../../../test/fixtures/factory.js";
import { ACCOUNTS, accountBalance } from "./ledger.js";
import { moveDispute } from "./money-records.js";

// Disputes at every paid stage (docs/product.md, Money: disputes; docs/decisions/057): either party
// reports, the other is told and answers, an admin splits the escrow in cents or, once released, pays
// the poster from the guarantee account; every ledger transaction sums to zero.

const t = await useTestApp();
const balance = (account: string) => accountBalance(t.app.ctx, account);
const report = (who: TestUser, taskId: string, description = "The provider left halfway through the job") =>
  call(t, who, { method: "POST", url: `/api/tasks/${taskId}/report-problem`, payload: { reason: "not_done", description } });
const resolve = (who: TestUser, taskId: string, payload: object) => call(t, who, { method: "POST", url: `/api/admin/disputes/${taskId}/resolve`, payload });
const disputeOf = async (who: TestUser, taskId: string) => (await call(t, who, { url: `/api/tasks/${taskId}/dispute` })).json<TaskDisputeAnswer>();

async function noticesOf(userId: string, taskId: string) {
  return t.database.db.select().from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.taskId, taskId), eq(notifications.kind, "dispute")));
}

async function unbalanced(): Promise<number> {
  const rows = await t.database.db.select({ id: ledgerTransactions.id, amount: ledgerEntries.amountCents }).from(ledgerTransactions).innerJoin(ledgerEntries, eq(ledgerEntries.transactionId, ledgerTransactions.id));
  const sums = new Map<string, number>();
  for (const row of rows) sums.set(row.id, (sums.get(row.id) ?? 0) + Number(row.amount));
  return [...sums.values()].filter((sum) => sum !== 0).length;
}

describe("report a problem", () => {
  it("lets the provider of a started task report; the poster is told where the money is and answers", async () => {
    const { task, poster, provider } = await taskAt(t, "in_progress");
    const res = await report(provider, task.id, "The poster was not there and does not answer");
    expect(res.statusCode).toBe(200);
    const [notice] = await noticesOf(poster.id, task.id);
    expect(notice?.body).toContain(`$${(task.totalCents / 100).toFixed(2)} is held in escrow until an admin decides.`);
    expect((await call(t, poster, { method: "POST", url: `/api/tasks/${task.id}/dispute/messages`, payload: { body: "I was there all afternoon." } })).statusCode).toBe(200);
    expect(await noticesOf(provider.id, task.id)).toHaveLength(1);
    const answer = await disputeOf(provider, task.id);
    expect(answer.dispute).toMatchObject({ status: "open", openedByRole: "provider", moneyNow: expect.stringContaining("held in escrow") });
    expect(answer.dispute?.messages.map((m) => [m.authorRole, m.body])).toEqual([
      ["provider", "The poster was not there and does not answer"],
      ["poster", "I was there all afternoon."],
    ]);
    expect(answer.canReport).toBe(false);
  });

  it("refuses strangers (403), an unpaid task, a second open dispute, and 72 hours after completion (409)", async () => {
    const claimed = await taskAt(t, "claimed");
    expect((await report(claimed.poster, claimed.task.id)).json()).toMatchObject({ message: expect.stringContaining("once the task is paid") });
    const { task, poster, provider } = await taskAt(t, "completed");
    const stranger = await createUser(t);
    expect((await report(stranger, task.id)).statusCode).toBe(403);
    expect((await call(t, stranger, { url: `/api/tasks/${task.id}/dispute` })).statusCode).toBe(403);
    t.clock.advance(72 * 3_600_000);
    expect((await report(poster, task.id)).statusCode).toBe(409);
    const fresh = await taskAt(t, "completed", { poster, provider });
    expect((await report(poster, fresh.task.id)).statusCode).toBe(200);
    const again = await report(provider, fresh.task.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already reported/);
  });

  it("holds a completed task's escrow past its release time until an admin decides", async () => {
    const { task, poster, provider } = await taskAt(t, "in_progress", { budgetCents: 5000 });
    expect((await report(poster, task.id)).statusCode).toBe(200);
    // Under $100 the release is due at completion; an open dispute keeps the money held.
    expect(await transition(t, "complete", task.id, provider)).not.toBeNull();
    t.clock.advance(48 * 3_600_000);
    await t.app.ctx.scheduler.runAll();
    expect(await balance(ACCOUNTS.escrow(task.id))).toBe(task.totalCents);
    expect(await balance(ACCOUNTS.providerBalance(provider.id))).toBe(0);
  });
});

describe("an admin's resolution", () => {
  it("refunds 40% of a started task's escrow and releases the rest with the provider's share, ending the task", async () => {
    const { task, poster, provider } = await taskAt(t, "in_progress", { budgetCents: 10000 });
    await reportProblem(t, poster, task);
    const admin = await createUser(t, { role: "admin" });
    const refundCents = Math.round(task.totalCents * 0.4);
    const tooMuch = await resolve(admin, task.id, { refund: (task.totalCents + 1) / 100, reason: "x" });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().fieldErrors).toMatchObject({ refund: expect.stringContaining("the most the escrow holds") });
    expect((await resolve(poster, task.id, { refund: refundCents / 100, reason: "x" })).statusCode).toBe(403);
    expect((await resolve(provider, task.id, { refund: refundCents / 100, reason: "x" })).statusCode).toBe(403);

    const res = await resolve(admin, task.id, { refund: refundCents / 100, reason: "Half the rooms were not cleaned." });
    expect(res.statusCode).toBe(200);
    const price = priceTask(task.budgetCents, task.urgency);
    const released = task.totalCents - refundCents;
    const share = Math.floor((price.providerShareCents * released) / task.totalCents);
    expect(await balance(ACCOUNTS.escrow(task.id))).toBe(0);
    expect(await balance(ACCOUNTS.providerBalance(provider.id))).toBe(share);
    expect((await taskRow(t, task.id)).status).toBe("cancelled");
    const seen = await disputeOf(poster, task.id);
    expect(seen.dispute?.resolution).toMatchObject({ refund: refundCents / 100, release: released / 100, providerShare: share / 100, fromGuarantee: 0 });
    for (const who of [poster, provider]) {
      const notices = await noticesOf(who.id, task.id);
      // Each is told the split in the statement's words, with the rule that made the provider's part.
      const body = notices.at(-1)?.body ?? "";
      expect(body).toContain(`$${(refundCents / 100).toFixed(2)} was refunded to ${who === poster ? "you" : "the poster"}`);
      expect(body).toContain(`${who === poster ? "the provider received" : "you received"} $${(share / 100).toFixed(2)}`);
      expect(body).toContain(`× $${(released / 100).toFixed(2)} ÷ $${(task.totalCents / 100).toFixed(2)} = $${(share / 100).toFixed(2)}`);
    }
    expect((await resolve(admin, task.id, { refund: 0, reason: "again" })).statusCode).toBe(409);
    expect(await unbalanced()).toBe(0);
  });

  it("pays the poster from the guarantee account once released, and recovers it from the provider only when asked", async () => {
    const admin = await createUser(t, { role: "admin" });
    const guaranteeBefore = await balance(ACCOUNTS.guarantee);
    const kept = await taskAt(t, "completed", { budgetCents: 5000 });
    expect(await balance(ACCOUNTS.escrow(kept.task.id))).toBe(0);
    await reportProblem(t, kept.poster, kept.task);
    const providerBefore = await balance(ACCOUNTS.providerBalance(kept.provider.id));
    expect((await resolve(admin, kept.task.id, { refund: 20, reason: "The vase was broken." })).statusCode).toBe(200);
    expect(await balance(ACCOUNTS.guarantee)).toBe(guaranteeBefore - 2000);
    expect(await balance(ACCOUNTS.providerBalance(kept.provider.id))).toBe(providerBefore);

    const recovered = await taskAt(t, "completed", { budgetCents: 5000 });
    await reportProblem(t, recovered.poster, recovered.task);
    const before = await balance(ACCOUNTS.providerBalance(recovered.provider.id));
    expect((await resolve(admin, recovered.task.id, { refund: 20, reason: "Broken again.", recoverFromProvider: true })).statusCode).toBe(200);
    expect(await balance(ACCOUNTS.providerBalance(recovered.provider.id))).toBe(before - 2000);
    expect(await balance(ACCOUNTS.guarantee)).toBe(guaranteeBefore - 2000);
    const [told] = (await noticesOf(recovered.provider.id, recovered.task.id)).slice(-1);
    expect(told?.body).toContain("$20.00 of that refund was taken back from your balance, so it comes out of your next payouts.");
    const finance = (await call(t, admin, { url: "/api/admin/finance" })).json();
    expect(finance.guaranteeBalance).toBe((guaranteeBefore - 2000) / 100);
    expect(await unbalanced()).toBe(0);
  });

  it("counts every payment and refund of a task paid again after a withdrawal: the guarantee may give back the second payment", async () => {
    const admin = await createUser(t, { role: "admin" });
    const { task, poster, provider } = await taskAt(t, "paid", { budgetCents: 4000 });
    expect(await transition(t, "withdraw", task.id, provider)).not.toBeNull();
    const second = await createProvider(t);
    const claimed = await transition(t, "claim", task.id, second);
    if (!claimed) throw new Error("second claim refused");
    await pay(t, poster, claimed);
    expect(await transition(t, "start", task.id, second)).not.toBeNull();
    expect(await transition(t, "complete", task.id, second)).not.toBeNull();
    expect(await balance(ACCOUNTS.escrow(task.id))).toBe(0);
    await reportProblem(t, poster, task);
    const tooMuch = await resolve(admin, task.id, { refund: task.totalCents / 100 + 0.01, reason: "Nothing was done." });
    expect(tooMuch.json()).toMatchObject({ fieldErrors: { refund: `must be between $0.00 and $${(task.totalCents / 100).toFixed(2)}, the most the poster paid and was not refunded yet` } });
    expect((await resolve(admin, task.id, { refund: task.totalCents / 100, reason: "Nothing was done." })).statusCode).toBe(200);
    expect(await unbalanced()).toBe(0);
  });

  it("lists open disputes by age and escalates those without admin action for 7 days", async () => {
    const old = await taskAt(t, "disputed");
    t.clock.advance(8 * 24 * 3_600_000);
    // Signed in now: a session idle for 8 days has ended.
    const admin = await createUser(t, { role: "admin" });
    const recent = await taskAt(t, "disputed");
    const res = await call(t, admin, { url: "/api/admin/finance" });
    expect(res.statusCode, res.body).toBe(200);
    const finance = res.json();
    const row = (id: string) => finance.disputes.find((d: { taskId: string }) => d.taskId === id);
    expect(row(old.task.id)).toMatchObject({ ageDays: 8, escalated: true });
    expect(row(recent.task.id)).toMatchObject({ ageDays: 0, escalated: false });
    const ids = finance.disputes.map((d: { taskId: string }) => d.taskId);
    expect(ids.indexOf(old.task.id)).toBeLessThan(ids.indexOf(recent.task.id));
  });
});

describe("late cancellation", () => {
  it("pays the provider 15% of the budget (at least $5) when a paid task is cancelled within a day of its time", async () => {
    const soon = new Date(t.clock.now().getTime() + 2 * 3_600_000).toISOString();
    const { task, poster, provider } = await taskAt(t, "paid", { budgetCents: 4000, body: { scheduledDate: soon } });
    const before = await balance(ACCOUNTS.providerBalance(provider.id));
    expect(await transition(t, "cancel", task.id, poster)).not.toBeNull();
    expect(await balance(ACCOUNTS.providerBalance(provider.id))).toBe(before + 600);
    expect(await balance(ACCOUNTS.escrow(task.id))).toBe(0);

    const later = new Date(t.clock.now().getTime() + 48 * 3_600_000).toISOString();
    const early = await taskAt(t, "paid", { budgetCents: 2000, body: { scheduledDate: later } });
    const earlyBefore = await balance(ACCOUNTS.providerBalance(early.provider.id));
    expect(await transition(t, "cancel", early.task.id, early.poster)).not.toBeNull();
    expect(await balance(ACCOUNTS.providerBalance(early.provider.id))).toBe(earlyBefore);
    expect(await unbalanced()).toBe(0);
  });
});

describe("while a dispute is open", () => {
  it("refuses the poster's cancel and the provider's withdrawal with 409 until an admin resolves it", async () => {
    const { task, poster, provider } = await taskAt(t, "paid", { budgetCents: 4000 });
    await reportProblem(t, provider, task);
    for (const [who, url] of [
      [poster, `/api/tasks/${task.id}/cancel`],
      [provider, `/api/tasks/${task.id}/withdraw`],
    ] as const) {
      const res = await call(t, who, { method: "PATCH", url });
      expect(res.statusCode, url).toBe(409);
      expect(res.json().message).toBe(OPEN_DISPUTE_MESSAGE);
    }
    expect(await taskRow(t, task.id)).toMatchObject({ status: "claimed", providerId: provider.id });
    expect(await balance(ACCOUNTS.escrow(task.id))).toBe(task.totalCents);

    const admin = await createUser(t, { role: "admin" });
    expect((await resolve(admin, task.id, { refund: task.totalCents / 100, reason: "The provider could not come." })).statusCode).toBe(200);
    expect(await balance(ACCOUNTS.escrow(task.id))).toBe(0);
    expect(await unbalanced()).toBe(0);
  });

  it("still lets the poster cancel once no dispute is open", async () => {
    const { task, poster } = await taskAt(t, "paid");
    expect(await transition(t, "cancel", task.id, poster)).toMatchObject({ status: "cancelled" });
  });
});

describe("a dispute moves only by its rows (DISPUTE_TRANSITIONS)", () => {
  const row = (name: "open" | "resolve"): MoneyTransitionDefinition<"dispute"> => findMoneyTransition("dispute", name);

  it("refuses a second report, a resolution with no dispute and a second resolution with the rows' own texts", async () => {
    const admin = await createUser(t, { role: "admin" });
    const { task, poster, provider } = await taskAt(t, "in_progress");
    const none = await resolve(admin, task.id, { refund: 0, reason: "x" });
    expect([none.statusCode, none.json().message]).toEqual([409, row("resolve").refusedIn?.none]);
    expect((await report(poster, task.id)).statusCode).toBe(200);
    const twice = await report(provider, task.id);
    expect([twice.statusCode, twice.json().message]).toEqual([409, row("open").refusedIn?.open]);
    expect((await resolve(admin, task.id, { refund: 0, reason: "The work was done." })).statusCode).toBe(200);
    const again = await resolve(admin, task.id, { refund: 0, reason: "x" });
    expect([again.statusCode, again.json().message]).toEqual([409, row("resolve").refused]);
  });

  it("refuses a move whose actor, guard or state its row does not allow, and a move no row names", async () => {
    const { task, poster } = await taskAt(t, "in_progress");
    const move = (name: Parameters<typeof moveDispute>[1], requester: Parameters<typeof moveDispute>[3], set: object) =>
      t.app.ctx.db.transaction((tx) => moveDispute(t.app.ctx, name, task, requester, set as never, tx));
    await expect(move("resolve", { poster: true, admin: false }, {})).rejects.toMatchObject({ statusCode: 403, message: row("resolve").notActor });
    await expect(move("resolve", { poster: false, admin: true }, { resolvedAt: t.clock.now() })).rejects.toMatchObject({ statusCode: 409, message: row("resolve").refusedIn?.none });
    await expect(move("reopen" as never, { poster: false, admin: true }, {})).rejects.toThrow(/Unknown dispute transition/);
    const unpaid = await taskAt(t, "claimed");
    await expect(
      t.app.ctx.db.transaction((tx) => moveDispute(t.app.ctx, "open", unpaid.task, { poster: true, admin: false }, { openedBy: unpaid.poster.id, reason: "other" }, tx)),
    ).rejects.toMatchObject({ statusCode: 409, message: expect.stringContaining("once the task is paid") });
    expect(await move("open", { poster: true, admin: false }, { openedBy: poster.id, reason: "other" })).toMatchObject({ status: row("open").to });
  });

  it("are the only writes of the disputes table: no other server file inserts or updates it", () => {
    const root = join(import.meta.dirname, "..", "..");
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [join(dir, e.name)] : []));
    const writers = sources(root).filter((path) => /\.(insert|update)\(disputes\)/.test(readFileSync(path, "utf8")));
    expect(writers.map((path) => relative(root, path))).toEqual(["features/payments/money-records.ts"]);
  });
});
