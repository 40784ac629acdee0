import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { createPoster, createProvider, makeOffer, pay, postOffersTask, postTask, reportProblem, taskAt, transition } from "../../../../test/fixtures/factory.js";
import { pdfText } from "../../../../test/pdf-text.js";
import type { OfferList } from "../../../shared/offers.js";
import { earningOfRow, statementOfAnswer } from "../../../shared/money-answers.js";
import type { Earnings, TaskEscrow } from "../../../shared/payments.js";
import type { Receipt, ReceiptList, YearlyStatement } from "../../../shared/receipts.js";
import { earningWords, statementWords, type StatementViewer } from "../../../shared/statement-words.js";
import { notifications } from "../../db/schema/chat.js";

// The walk in two browsers, through the routes (docs/decisions/073-one-account-of-each-tasks-money.md):
// what each person reads about a task's money is the task's one statement in their words, after a
// partial refund, a late cancellation after a withdrawal, and an offer that was not chosen.

const t = await useTestApp();
const get = (who: TestUser, url: string) => call(t, who, { url });
const HOUR = 3_600_000;

/** The task's statement from GET /api/tasks/{id}/escrow, in `viewer`'s words, as the task page tells it. */
async function wordsOf(who: TestUser, taskId: string, viewer: StatementViewer, providerName?: string) {
  const escrow = await get(who, `/api/tasks/${taskId}/escrow`);
  expect(escrow.statusCode, escrow.body).toBe(200);
  const statement = statementOfAnswer(taskId, escrow.json<TaskEscrow>().statement);
  return statementWords(statement, viewer, providerName ? { providerName: () => providerName } : {});
}

const allText = (words: ReturnType<typeof statementWords>) =>
  [words.badge?.label, words.headline, words.summary, words.closedLine, words.rule, ...words.lines.map((l) => l.label), ...words.totals.map((l) => l.label)].join(" | ");

async function earningRow(provider: TestUser, taskId: string) {
  return (await get(provider, "/api/payments/earnings")).json<Earnings>().tasks.find((row) => row.taskId === taskId);
}

async function refundReceipts(poster: TestUser, taskId: string): Promise<Receipt[]> {
  const list = (await get(poster, "/api/receipts")).json<ReceiptList>().receipts.filter((r) => r.task.id === taskId && r.kind === "refund");
  return Promise.all(list.map(async (r) => (await get(poster, `/api/receipts/${r.id}`)).json<Receipt>()));
}

describe("the issue's partial refund: $39.38 paid, $15.00 refunded by an admin", () => {
  it("tells the provider what they received, the poster what it cost, both the rule, and the receipt the net cost", async () => {
    const poster = await createPoster(t);
    const provider = await createProvider(t, { firstName: "Maria", lastName: "Garcia" });
    const admin = await createUser(t, { role: "admin" });
    const { task } = await taskAt(t, "in_progress", { poster, provider, budgetCents: 3600 });
    expect(task.totalCents).toBe(3938);
    await reportProblem(t, poster, task);
    const resolved = await call(t, admin, { method: "POST", url: `/api/admin/disputes/${task.id}/resolve`, payload: { refund: 15, reason: "Half done", recoverFromProvider: false } });
    expect(resolved.statusCode, resolved.body).toBe(200);

    // Item 1: the provider is never told the task pays nothing, nor that it was cancelled.
    const theirs = await wordsOf(provider, task.id, { role: "provider", id: provider.id });
    expect(theirs.badge?.label).toBe("Settled by admin");
    expect(theirs.headline).toBe("An admin resolved the reported problem: $15.00 was refunded to the poster and you received $18.94.");
    expect(theirs.totals).toEqual([{ label: "You received", cents: 1894 }]);
    expect(allText(theirs)).not.toMatch(/pays (you )?nothing|Nothing will be paid|was cancelled/);
    // The closed chat says an admin settled it (item 7), on both sides.
    expect(theirs.closedLine).toMatch(/^An admin settled this task, so the chat is closed\./);
    const posters = await wordsOf(poster, task.id, { role: "poster" }, "Maria G.");
    expect(posters.closedLine).toMatch(/^An admin settled this task, so the chat is closed\./);
    // The poster's badge says part, not all, came back.
    expect(posters.badge?.label).toBe("Partly refunded");
    expect(posters.totals).toEqual([
      { label: "You paid", cents: 3938 },
      { label: "Refunded to you", cents: 1500 },
      { label: "Your cost", cents: 2438 },
    ]);

    // Item 5: the pro-rata rule is told, to both, with the stored share.
    const rule = "$30.60 × $24.38 ÷ $39.38 = $18.94. Errandly keeps the other $5.44.";
    expect(posters.rule).toContain(rule);
    expect(theirs.rule).toContain(rule);
    expect(theirs.rule).toContain("so of a part you receive the same proportion");
    // ...and the refund receipt, its page and its PDF, show the net cost.
    const [receipt] = await refundReceipts(poster, task.id);
    expect(receipt?.account).toEqual({ paid: 39.38, refunded: 15, cost: 24.38, reason: "An admin's resolution of a reported problem" });
    const pdf = pdfText((await get(poster, `/api/receipts/${receipt?.id}/pdf`)).rawPayload);
    for (const line of ["Paid for this task", "$39.38", "$15.00", "Your cost for this task", "$24.38"]) expect(pdf).toContain(line);

    // /earnings agrees: settled, $18.94 that moved ("You earned").
    const row = await earningRow(provider, task.id);
    expect(row).toMatchObject({ status: "settled", earned: 18.94, moved: true, refundedToPoster: 15 });
    expect(row && earningWords(earningOfRow(row))).toMatchObject({ status: "Settled by admin", amountLabel: "You earned" });
  });
});

describe("the issue's late cancellation after a withdrawal", () => {
  it("shows the poster both payments, the $5.00 fee and each refund, and the second provider the fee they earned", async () => {
    const poster = await createPoster(t);
    const first = await createProvider(t);
    const second = await createProvider(t, { firstName: "Sam", lastName: "Park" });
    const scheduledDate = new Date(t.clock.now().getTime() + 12 * HOUR).toISOString();
    const task = await postTask(t, poster, { budgetCents: 2500, body: { scheduledDate } });
    expect(await transition(t, "claim", task.id, first)).not.toBeNull();
    await pay(t, poster, task);
    expect(await transition(t, "withdraw", task.id, first)).not.toBeNull();
    t.clock.advance(60_000);
    expect(await transition(t, "claim", task.id, second)).not.toBeNull();
    await pay(t, poster, task);
    t.clock.advance(60_000);
    expect(await transition(t, "cancel", task.id, poster)).not.toBeNull();

    // Item 2: no "Refunded $50.00" beside "Total $27.50": every payment, the fee and the refunds.
    const posters = await wordsOf(poster, task.id, { role: "poster" }, "Sam P.");
    expect(posters.lines.map((l) => [l.label, l.cents])).toEqual([
      ["You paid", 2750],
      ["Refunded to you because the provider withdrew", 2750],
      ["You paid", 2750],
      ["Late-cancellation fee to Sam P.", 500],
      ["Refunded to you because you cancelled the task", 2250],
    ]);
    expect(posters.totals).toEqual([
      { label: "You paid", cents: 5500 },
      { label: "Refunded to you", cents: 5000 },
      { label: "Your cost", cents: 500 },
    ]);
    expect(posters.headline).toBe("You cancelled less than 24 hours before the task: $5.00 went to Sam P. as a late-cancellation fee and $22.50 was refunded to your card.");
    const receipts = await refundReceipts(poster, task.id);
    expect(receipts.map((r) => r.account).sort((a, b) => (a?.refunded ?? 0) - (b?.refunded ?? 0))).toEqual([
      { paid: 27.5, refunded: 27.5, cost: 0, reason: "The provider withdrew" },
      { paid: 55, refunded: 50, cost: 5, reason: "The task was cancelled" },
    ]);

    // Item 3: the fee is the provider's, told as money they earned everywhere they look.
    const theirs = await wordsOf(second, task.id, { role: "provider", id: second.id });
    expect(theirs.badge?.label).toBe("Late-cancellation fee");
    expect(theirs.headline).toBe("The poster cancelled less than 24 hours before the task: $5.00 went to you as a late-cancellation fee and $22.50 was refunded to the poster.");
    expect(theirs.totals).toEqual([{ label: "You received", cents: 500 }]);
    expect(allText(theirs)).not.toMatch(/pays (you )?nothing|Nothing will be paid/);
    const row = await earningRow(second, task.id);
    expect(row).toMatchObject({ status: "late_fee", earned: 5, moved: true });
    expect(row && earningWords(earningOfRow(row))).toMatchObject({ status: "Late-cancellation fee", amountLabel: "You earned" });
    const bell = await t.database.db.select().from(notifications).where(and(eq(notifications.userId, second.id), eq(notifications.taskId, task.id)));
    expect(bell.map((n) => n.body).join(" ")).not.toMatch(/pays (you )?nothing/);
    // The first provider's round was refunded before them: not on their earnings.
    expect(await earningRow(first, task.id)).toBeUndefined();

    // Item 6: the CSV says the fee's type in words, and the statement names it apart from gross.
    const csv = (await get(second, "/api/payments/earnings.csv")).body;
    expect(csv).toContain(`,Late-cancellation fee,`);
    expect(csv).not.toMatch(/,(late_fee|split|guarantee|release|Released),/);
    const year = t.clock.now().getUTCFullYear();
    expect((await get(second, `/api/payments/statements/${year}`)).json<YearlyStatement>()).toMatchObject({ gross: 0, fees: 0, lateFees: 5, net: 5 });
  });
});

describe("the issue's offer not chosen", () => {
  it("shows the passed-over offerer no money of the task: no escrow, no earnings row, their offer closed", async () => {
    const poster = await createPoster(t);
    const chosen = await createProvider(t);
    const passed = await createProvider(t);
    const task = await postOffersTask(t, poster, { budgetCents: 3600 });
    const chosenOffer = await makeOffer(t, chosen, task.id, { price: 36 });
    await makeOffer(t, passed, task.id, { price: 40 });
    const accepted = await call(t, poster, { method: "POST", url: `/api/tasks/${task.id}/offers/${chosenOffer}/accept`, payload: { price: 36 } });
    expect(accepted.statusCode, accepted.body).toBe(200);
    await pay(t, poster, task);

    // Item 4: the page learns "Another offer was chosen" from their own closed offer...
    const offers = (await get(passed, `/api/tasks/${task.id}/offers`)).json<OfferList>();
    expect(offers.offers.filter((o) => o.provider.id === passed.id).map((o) => o.status)).toEqual(["closed"]);
    const words = statementWords(statementOfAnswer(task.id, (await get(chosen, `/api/tasks/${task.id}/escrow`)).json<TaskEscrow>().statement), { role: "passed_over" });
    expect(words.badge?.label).toBe("Another offer was chosen");
    expect(allText(words)).not.toMatch(/You'll earn|held in escrow|permission/);
    // ...and nothing of the task's money reaches them.
    expect((await get(passed, `/api/tasks/${task.id}/escrow`)).statusCode).toBeGreaterThanOrEqual(400);
    expect(await earningRow(passed, task.id)).toBeUndefined();
    // The chosen one reads the share to come.
    expect((await wordsOf(chosen, task.id, { role: "provider", id: chosen.id })).totals).toEqual([{ label: "You earn", cents: 3060 }]);
  });
});
