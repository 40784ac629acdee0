import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { createProvider, taskAt, transition } from "../../../../test/fixtures/factory.js";
import { pdfText } from "../../../../test/pdf-text.js";
import { ledgerEntries, ledgerTransactions, receiptFacts } from "../../db/schema/payments.js";
import { tasks } from "../../db/schema/tasks.js";
import { emailOutbox } from "../../db/schema/site.js";
import { formatDollarsExact, lateCancellationFeeCents, priceTask } from "../../../shared/money.js";
import type { LedgerPage, PayoutHistory, Receipt, ReceiptList, YearlyStatement } from "../../../shared/receipts.js";
import { csvField } from "./csv.js";
import { ACCOUNTS, cardMovement } from "./ledger.js";
import { findReceipt } from "./receipt-ledger.js";
import { receiptKind, receiptOf, type ReceiptRow } from "./receipts.js";

// Receipts, statements and the admin's ledger search (docs/decisions/060-receipts-from-the-ledger.md).

const t = await useTestApp();

const get = (user: TestUser | null, url: string) => call(t, user, { method: "GET", url });

async function receiptsOf(user: TestUser): Promise<ReceiptList["receipts"]> {
  const res = await get(user, "/api/receipts");
  expect(res.statusCode).toBe(200);
  return res.json<ReceiptList>().receipts;
}

async function mailsTo(user: TestUser) {
  return t.database.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, user.email), eq(emailOutbox.kind, "receipt")));
}

describe("receipts", () => {
  it("gives the poster a receipt of the payment: page, e-mail and PDF with the figures and the card", async () => {
    const provider = await createProvider(t, { firstName: "Maria", lastName: "Gomez" });
    const { task, poster } = await taskAt(t, "paid", { provider, budgetCents: 10_000, urgency: "urgent", body: { title: "Carry a wardrobe upstairs" } });
    const price = priceTask(10_000, "urgent");

    const [listed, ...more] = await receiptsOf(poster);
    expect(more).toEqual([]);
    expect(listed).toMatchObject({ kind: "payment", amount: price.totalCents / 100, task: { id: task.id, title: "Carry a wardrobe upstairs" } });

    const res = await get(poster, `/api/receipts/${listed?.id}`);
    expect(res.statusCode).toBe(200);
    const receipt = res.json<Receipt>();
    expect(receipt).toMatchObject({
      kind: "payment",
      budget: 100,
      urgentSurcharge: price.urgentFeeCents / 100,
      serviceFee: price.serviceFeeCents / 100,
      total: price.totalCents / 100,
      amount: price.totalCents / 100,
      cardLast4: "4242",
      task: { providerName: "Maria G." },
    });
    expect(receipt.number).toMatch(/^ER-\d{8}-[0-9A-F]{8}$/);

    const [mail, second] = await mailsTo(poster);
    expect(second).toBeUndefined();
    expect(mail?.subject).toBe(`Payment receipt ${receipt.number}`);
    // The name's initial ends the sentence: one period, not two.
    expect(mail?.text).toContain('Your receipt for "Carry a wardrobe upstairs" with Maria G.\n');
    expect(mail?.text).toContain("Budget: $100.00");
    expect(mail?.text).toContain("Urgent surcharge: $15.00");
    expect(mail?.text).toContain("Service fee: $9.70");
    expect(mail?.text).toContain("Total charged to card ending 4242: $124.70");
    expect(mail?.text).toContain(`/receipts/${receipt.id}`);

    const pdf = await get(poster, `/api/receipts/${receipt.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.headers["content-disposition"]).toBe(`attachment; filename="errandly-receipt-${receipt.number}.pdf"`);
    const text = pdfText(pdf.rawPayload);
    for (const line of [
      "Payment receipt",
      `Receipt number: ${receipt.number}`,
      "Task: Carry a wardrobe upstairs",
      "Provider: Maria G.",
      "Budget",
      "$100.00",
      "Urgent surcharge",
      "$15.00",
      "Service fee",
      "$9.70",
      "Total charged to card ending 4242",
      "$124.70",
    ]) {
      expect(text).toContain(line);
    }
  });

  it("shows a receipt to its payer and admins only; anyone else is told it does not exist", async () => {
    const { poster, provider } = await taskAt(t, "paid");
    const [receipt] = await receiptsOf(poster);
    const admin = await createUser(t, { role: "admin" });
    const stranger = await createUser(t);
    for (const [who, status] of [
      [null, 401],
      [stranger, 404],
      [provider, 404],
      [admin, 200],
    ] as const) {
      expect((await get(who, `/api/receipts/${receipt?.id}`)).statusCode).toBe(status);
      expect((await get(who, `/api/receipts/${receipt?.id}/pdf`)).statusCode).toBe(status);
    }
    expect(await receiptsOf(provider)).toEqual([]);
    expect((await get(poster, "/api/receipts/not-a-uuid")).statusCode).toBe(400);
    expect((await get(poster, `/api/receipts/${randomUUID()}`)).json()).toEqual({ message: "Receipt not found. Open your receipts from the Receipts page." });
  });

  it("gives a receipt for a tip and for a refund, and none for the release to the provider", async () => {
    const { task, poster, provider } = await taskAt(t, "completed", { budgetCents: 5000 });
    await call(t, poster, { method: "POST", url: `/api/tasks/${task.id}/approve-release` });
    const tip = await call(t, poster, { method: "POST", url: `/api/tasks/${task.id}/tip`, payload: { amount: 7.5, idempotencyKey: randomUUID() } });
    expect(tip.statusCode).toBe(200);
    const kinds = (await receiptsOf(poster)).map((r) => [r.kind, r.amount]);
    expect(kinds).toEqual([
      ["tip", 7.5],
      ["payment", 54.5],
    ]);
    const [tipReceipt] = await receiptsOf(poster);
    // The sandbox charges tips to the card the task was paid with.
    expect((await get(poster, `/api/receipts/${tipReceipt?.id}`)).json<Receipt>()).toMatchObject({ kind: "tip", cardLast4: "4242" });
    expect(await receiptsOf(provider)).toEqual([]);

    const cancelled = await taskAt(t, "paid", { budgetCents: 5000 });
    expect(await transition(t, "cancel", cancelled.task.id, cancelled.poster)).not.toBeNull();
    const [refund] = await receiptsOf(cancelled.poster);
    expect(refund).toMatchObject({ kind: "refund", amount: 54.5 });
    const text = pdfText((await get(cancelled.poster, `/api/receipts/${refund?.id}/pdf`)).rawPayload);
    expect(text).toContain("Refund receipt");
    expect(text).toContain("Refunded to card ending 4242");
    const mails = await mailsTo(cancelled.poster);
    expect(mails.map((m) => m.subject.split(" ER-")[0]).sort()).toEqual(["Payment receipt", "Refund receipt"]);
  });

  it("keeps the figures, title, date and provider of the moment the money moved after the task is edited and claimed again", async () => {
    const first = await createProvider(t, { firstName: "Maria", lastName: "Gomez" });
    const scheduledDate = new Date(t.clock.now().getTime() + 3 * 86_400_000).toISOString();
    const { task, poster } = await taskAt(t, "paid", { provider: first, budgetCents: 6000, body: { title: "Carry a wardrobe upstairs", scheduledDate } });
    const paid = priceTask(6000, "standard");
    expect((await call(t, first, { method: "PATCH", url: `/api/tasks/${task.id}/withdraw` })).statusCode).toBe(200);
    const edited = await call(t, poster, {
      method: "PATCH",
      url: `/api/tasks/${task.id}`,
      payload: { title: "Carry two wardrobes upstairs", description: "Both from the van, third floor", budget: 80, scheduledDate: null, location: "1 Main St" },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const second = await createProvider(t, { firstName: "Devon", lastName: "Park" });
    expect(await transition(t, "claim", task.id, second)).toMatchObject({ providerId: second.id, budgetCents: 8000 });

    const [refund, payment] = await receiptsOf(poster);
    expect([refund?.kind, payment?.kind]).toEqual(["refund", "payment"]);
    const paymentReceipt = (await get(poster, `/api/receipts/${payment?.id}`)).json<Receipt>();
    expect(paymentReceipt).toMatchObject({
      budget: 60,
      serviceFee: paid.serviceFeeCents / 100,
      total: paid.totalCents / 100,
      amount: paid.totalCents / 100,
      task: { title: "Carry a wardrobe upstairs", scheduledDate, providerName: "Maria G." },
    });
    // The withdrawal released the provider before its refund was written: the refund names none, as its e-mail did.
    const refundReceipt = (await get(poster, `/api/receipts/${refund?.id}`)).json<Receipt>();
    expect(refundReceipt).toMatchObject({ total: paid.totalCents / 100, amount: paid.totalCents / 100, task: { title: "Carry a wardrobe upstairs", providerName: null } });

    const paymentPdf = pdfText((await get(poster, `/api/receipts/${payment?.id}/pdf`)).rawPayload);
    for (const line of ["Task: Carry a wardrobe upstairs", "Provider: Maria G.", "$60.00", formatDollarsExact(paid.totalCents)]) expect(paymentPdf).toContain(line);
    expect(paymentPdf).not.toContain("$80.00");
    const refundPdf = pdfText((await get(poster, `/api/receipts/${refund?.id}/pdf`)).rawPayload);
    expect(refundPdf).toContain("Task: Carry a wardrobe upstairs");
    expect(refundPdf).not.toContain(formatDollarsExact(priceTask(8000, "standard").totalCents));
  });

  it("reads a receipt issued before its facts were frozen from the task as it is now, and never rewrites frozen facts", async () => {
    const { task, poster } = await taskAt(t, "paid", { budgetCents: 5000, body: { title: "Walk the dog" } });
    const [receipt] = await receiptsOf(poster);
    const failure = (query: Promise<unknown>) =>
      query.then(
        () => "succeeded",
        (err: Error) => String((err.cause as Error | undefined)?.message ?? err.message),
      );
    expect(await failure(t.database.db.update(receiptFacts).set({ budgetCents: 1 }))).toBe("receipt facts are written once, when the money moves");
    expect(await failure(t.database.db.delete(receiptFacts))).toBe("receipt facts are written once, when the money moves");
    // A receipt from before migration 0024 has no facts row: the trigger is set aside here only to make one.
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`alter table receipt_facts disable trigger user`);
      await tx.delete(receiptFacts).where(eq(receiptFacts.transactionId, receipt?.id ?? ""));
      await tx.execute(sql`alter table receipt_facts enable trigger user`);
    });
    await t.database.db.update(tasks).set({ title: "Walk two dogs" }).where(eq(tasks.id, task.id));
    expect((await get(poster, `/api/receipts/${receipt?.id}`)).json<Receipt>()).toMatchObject({ budget: 50, task: { title: "Walk two dogs" } });
  });

  it("decides on the ledger write path, from the postings in hand, the receipts the ledger read finds", async () => {
    const { task, poster } = await taskAt(t, "completed", { budgetCents: 5000 });
    await call(t, poster, { method: "POST", url: `/api/tasks/${task.id}/approve-release` });
    await call(t, poster, { method: "POST", url: `/api/tasks/${task.id}/tip`, payload: { amount: 4, idempotencyKey: randomUUID() } });
    const cancelled = await taskAt(t, "paid", { budgetCents: 5000 });
    await transition(t, "cancel", cancelled.task.id, cancelled.poster);
    const transactions = await t.database.db.select().from(ledgerTransactions).where(inArray(ledgerTransactions.taskId, [task.id, cancelled.task.id]));
    // A capture, a release and a tip on the first task; a capture and a refund on the second.
    expect(transactions.map((lt) => lt.kind).sort()).toEqual(["capture", "capture", "refund", "release", "tip"]);
    for (const lt of transactions) {
      const postings = await t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.transactionId, lt.id));
      const due = receiptKind({ kind: lt.kind, ...cardMovement(postings) });
      expect(due !== null, `${lt.kind}: due on write, found on read`).toBe((await findReceipt(t.app.ctx, lt.id)) !== null);
    }
  });

  it("turns any ledger transaction that pays back to the card into a refund receipt, whatever its kind", () => {
    const row: ReceiptRow = {
      id: randomUUID(),
      kind: "release",
      createdAt: new Date("2026-03-04T10:00:00Z"),
      paidCents: 0,
      refundedCents: 2180,
      cardLast4: "1881",
      task: { id: randomUUID(), title: "Walk the dog", scheduledDate: null, budgetCents: 5000, urgentFeeCents: 0, serviceFeeCents: 450, totalCents: 5450 },
      payer: { firstName: "Ann", lastName: "Lee" },
      provider: null,
      statement: null,
    };
    // A split resolution: part released, part refunded, in one transaction.
    expect(receiptOf(row)).toMatchObject({ kind: "refund", amount: 21.8, number: `ER-20260304-${row.id.replaceAll("-", "").slice(0, 8).toUpperCase()}` });
    expect(receiptOf({ ...row, refundedCents: 0 })).toBeNull();
  });
});

describe("statements", () => {
  it("lists payouts with the tasks they paid, exports CSV and gives the yearly statement with its PDF", async () => {
    const provider = await createProvider(t, { firstName: "Sam", lastName: "Park" });
    const first = await taskAt(t, "completed", { provider, budgetCents: 5000, body: { title: "Water plants, front and back" } });
    const second = await taskAt(t, "completed", { provider, budgetCents: 4000, body: { title: "=1+2 errand" } });
    await call(t, second.poster, { method: "POST", url: `/api/tasks/${second.task.id}/tip`, payload: { amount: 5, idempotencyKey: randomUUID() } });
    expect((await call(t, provider, { method: "POST", url: "/api/stripe/connect/account" })).statusCode).toBe(201);
    expect((await call(t, provider, { method: "POST", url: "/api/sandbox/payouts/complete-onboarding" })).statusCode).toBe(200);

    const share = (budget: number) => priceTask(budget, "standard").providerShareCents;
    const commission = (budget: number) => priceTask(budget, "standard").platformCommissionCents;
    const paidOut = share(5000) + share(4000) + 500;
    const history = (await get(provider, "/api/payments/payouts")).json<PayoutHistory>();
    const year = t.clock.now().getUTCFullYear();
    expect(history.years).toEqual([year]);
    expect(history.payouts).toHaveLength(1);
    expect(history.payouts[0]).toMatchObject({ amount: paidOut / 100, status: "paid" });
    expect(history.payouts[0]?.tasks.map((task) => task.title).sort()).toEqual(["=1+2 errand", "Water plants, front and back"]);
    expect((await get(first.poster, "/api/payments/payouts")).json<PayoutHistory>()).toEqual({ payouts: [], years: [] });

    const csv = await get(provider, "/api/payments/earnings.csv");
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers["content-disposition"]).toBe(`attachment; filename="errandly-earnings-${t.clock.now().toISOString().slice(0, 10)}.csv"`);
    const lines = csv.body.trimEnd().split("\r\n");
    expect(lines[0]).toBe("Date,Type,Task,Task ID,Amount (USD)");
    expect(lines).toHaveLength(5);
    // The Type column is in words, as the earnings page says it (BALANCE_ENTRY_WORDS).
    expect(lines.some((l) => l.includes(`,Released,"Water plants, front and back",${first.task.id},${(share(5000) / 100).toFixed(2)}`))).toBe(true);
    expect(lines.some((l) => l.includes(`,Released,"'=1+2 errand",${second.task.id},`))).toBe(true);
    expect(lines.some((l) => l.includes(`,Tip,"'=1+2 errand",${second.task.id},5.00`))).toBe(true);
    expect(lines.at(-1)).toMatch(new RegExp(`,Payout,,,-${(paidOut / 100).toFixed(2)}$`));

    const statement = await get(provider, `/api/payments/statements/${year}`);
    expect(statement.json<YearlyStatement>()).toEqual({
      year,
      gross: 90,
      fees: (commission(5000) + commission(4000)) / 100,
      lateFees: 0,
      recovered: 0,
      tips: 5,
      net: paidOut / 100,
      payouts: paidOut / 100,
      transactions: 3,
      overReportingThreshold: false,
      providerName: "Sam P.",
    });
    const pdf = await get(provider, `/api/payments/statements/${year}/pdf`);
    expect(pdf.headers["content-disposition"]).toBe(`attachment; filename="errandly-statement-${year}.pdf"`);
    const text = pdfText(pdf.rawPayload);
    for (const line of [`Yearly statement ${year}`, "Provider: Sam P.", "$90.00", "$13.50", "$5.00", "Transactions (paid tasks, late fees and tips)", "3"]) {
      expect(text).toContain(line);
    }
    // The note wraps over several lines of the page.
    expect(text.replace(/\s+/g, " ")).toContain("Form 1099-K when they pass $20,000.00 and 200 transactions in a calendar year. This year did not pass both.");

    expect((await get(provider, `/api/payments/statements/${year - 1}`)).json()).toEqual({
      message: `You had no earnings in ${year - 1}. Pick a year listed on your earnings page.`,
    });
    expect((await get(provider, "/api/payments/statements/last")).statusCode).toBe(400);
    expect((await get(null, "/api/payments/earnings.csv")).statusCode).toBe(401);
  });

  it("gives a late-cancellation fee its own line, outside gross and with no fee on it, and its own CSV type", async () => {
    const provider = await createProvider(t, { firstName: "Lee", lastName: "Ortiz" });
    await taskAt(t, "completed", { provider, budgetCents: 5000 });
    const soon = new Date(t.clock.now().getTime() + 2 * 3_600_000).toISOString();
    const late = await taskAt(t, "paid", { provider, budgetCents: 4000, body: { scheduledDate: soon } });
    expect(await transition(t, "cancel", late.task.id, late.poster)).not.toBeNull();

    // The fee is the provider's in full (docs/product.md, Late cancellation): 15% of $40 is $6.00.
    const feeCents = lateCancellationFeeCents(4000, priceTask(4000, "standard").totalCents);
    expect(feeCents).toBe(600);
    const released = priceTask(5000, "standard");
    const statement = (await get(provider, `/api/payments/statements/${t.clock.now().getUTCFullYear()}`)).json<YearlyStatement>();
    // Gross is the released work alone: it once read $56.00, the fee hidden inside it.
    expect(statement).toMatchObject({
      gross: 5000 / 100,
      fees: released.platformCommissionCents / 100,
      lateFees: feeCents / 100,
      tips: 0,
      net: (released.providerShareCents + feeCents) / 100,
      transactions: 2,
    });
    expect(Math.round((statement.gross - statement.fees + statement.lateFees) * 100)).toBe(Math.round(statement.net * 100));
    const pdf = pdfText((await get(provider, `/api/payments/statements/${t.clock.now().getUTCFullYear()}/pdf`)).rawPayload);
    expect(pdf).toContain("Late-cancellation fees (yours in full)");
    // The CSV says what each line is in words: no "late_fee" or "split" codes.
    const csv = (await get(provider, "/api/payments/earnings.csv")).body;
    expect(csv).toContain(`,Late-cancellation fee,`);
    expect(csv).not.toMatch(/,(late_fee|split|guarantee|release),/);
  });

  it("writes CSV fields that stay text: commas, quotes, line breaks and formulas", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a, b")).toBe('"a, b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    for (const formula of ["=SUM(A1:A2)", "+1", "-2+3", "@cmd", "\tx"]) expect(csvField(formula)).toBe(`"'${formula}"`);
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvField({ cents: -1250 })).toBe("-12.50");
    expect(csvField(null)).toBe("");
  });
});

describe("admin ledger search", () => {
  it("finds entries by task, account and dates, a page at a time, and exports them as CSV", async () => {
    const admin = await createUser(t, { role: "admin" });
    // A formula behind a semicolon: one cell in our CSV, a cell of its own in a spreadsheet set to ";".
    const { task } = await taskAt(t, "completed", { budgetCents: 5000, body: { title: "Paint fence;=1+1" } });
    const byTask = (await get(admin, `/api/admin/ledger?taskId=${task.id}`)).json<LedgerPage>();
    // The capture (2 postings) and the release below $100 at completion (3 postings).
    expect(byTask.entries).toHaveLength(5);
    expect(byTask.next).toBeNull();
    expect(new Set(byTask.entries.map((e) => e.kind))).toEqual(new Set(["capture", "release"]));
    expect(byTask.entries.reduce((sum, e) => sum + Math.round(e.amount * 100), 0)).toBe(0);

    const pages: number[][] = [];
    let after: number | null | undefined;
    do {
      const res = await get(admin, `/api/admin/ledger?taskId=${task.id}&limit=2${after ? `&after=${after}` : ""}`);
      const page = res.json<LedgerPage>();
      pages.push(page.entries.map((e) => e.id));
      after = page.next;
    } while (after);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(byTask.entries.map((e) => e.id));

    const escrow = (await get(admin, `/api/admin/ledger?account=${encodeURIComponent(ACCOUNTS.escrow(task.id))}`)).json<LedgerPage>();
    expect(escrow.entries.map((e) => e.amount)).toEqual([-54.5, 54.5]);

    const today = t.clock.now().toISOString().slice(0, 10);
    const dated = (await get(admin, `/api/admin/ledger?taskId=${task.id}&from=${today}&to=${today}`)).json<LedgerPage>();
    expect(dated.entries).toHaveLength(5);
    const before = (await get(admin, `/api/admin/ledger?taskId=${task.id}&to=2000-01-01`)).json<LedgerPage>();
    expect(before.entries).toEqual([]);

    for (const [query, message] of [
      ["from=2026-02-30", "from: from must be a real calendar date"],
      ["to=yesterday", "to must be a date written YYYY-MM-DD"],
      ["from=2026-05-02&to=2026-05-01", "The start date is after the end date. Swap them and search again."],
      ["taskId=42", "taskId must be a task's id (a UUID)"],
      ["limit=500", "limit must be 1 to 100"],
    ] as const) {
      for (const url of [`/api/admin/ledger?${query}`, `/api/admin/ledger.csv?${query}`]) {
        const res = await get(admin, url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json<{ message: string }>().message, url).toContain(message);
      }
    }

    const csv = await get(admin, `/api/admin/ledger.csv?taskId=${task.id}`);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers["content-disposition"]).toBe(`attachment; filename="errandly-ledger-${today}.csv"`);
    const lines = csv.body.trimEnd().split("\r\n");
    expect(lines[0]).toBe("Entry,Date,Kind,Account,Amount (USD),Transaction,Task ID,Task,Memo");
    expect(lines.slice(1).map((l) => Number(l.split(",")[0]))).toEqual(byTask.entries.map((e) => e.id));
    expect(lines.slice(1).every((l) => l.includes(`,${task.id},"Paint fence;'=1+1",`))).toBe(true);

    const provider = await createProvider(t);
    for (const url of ["/api/admin/ledger", "/api/admin/ledger.csv"]) {
      expect((await get(provider, url)).statusCode).toBe(403);
      expect((await get(null, url)).statusCode).toBe(401);
    }
  });
});
