import { z } from "zod";
import { LEDGER_KINDS, PAYOUT_STATUSES } from "./money-lifecycle.js";
import { dollarsToCents, formatDollarsExact } from "./money.js";

// Contracts of the poster's receipts, the provider's statements and the admin's ledger search
// (docs/decisions/060-receipts-from-the-ledger.md). Each is read from the ledger, so every way
// money moves (a payment, a tip, a refund of any size) has its receipt and its statement line.

/** What a receipt is for, from the poster's side of the ledger transaction. */
export const RECEIPT_KINDS = ["payment", "tip", "refund"] as const;
export type ReceiptKind = (typeof RECEIPT_KINDS)[number];

export const RECEIPT_TITLES: Record<ReceiptKind, string> = {
  payment: "Payment receipt",
  tip: "Tip receipt",
  refund: "Refund receipt",
};

export const receiptSchema = z.object({
  /** The ledger transaction's id: a receipt is a view of one transaction. */
  id: z.uuid(),
  number: z.string(),
  kind: z.enum(RECEIPT_KINDS),
  issuedAt: z.string(),
  /** What moved, in dollars: paid for a payment or a tip, given back for a refund. */
  amount: z.number(),
  /** The task's price as posted; the lines a payment receipt itemises. */
  budget: z.number(),
  urgentSurcharge: z.number(),
  serviceFee: z.number(),
  total: z.number(),
  cardLast4: z.string().nullable(),
  /**
   * A refund's place in the task's account, from its statement up to and including this refund:
   * what the poster paid for the task, what came back in all, what it cost them, and why this came
   * back. Null on payments and tips.
   */
  account: z
    .object({
      paid: z.number(),
      refunded: z.number(),
      cost: z.number(),
      reason: z.string().nullable(),
    })
    .nullable(),
  task: z.object({
    id: z.uuid(),
    title: z.string(),
    scheduledDate: z.string().nullable(),
    providerName: z.string().nullable(),
  }),
  payerName: z.string(),
});
export type Receipt = z.infer<typeof receiptSchema>;

/** The receipt's lines in words, shared by the page, the e-mail and the PDF. */
export function receiptLines(receipt: Receipt): [label: string, value: string][] {
  const card = receipt.cardLast4 ? `card ending ${receipt.cardLast4}` : "your card";
  const lines: [string, string][] = [];
  if (receipt.kind === "payment") {
    lines.push(["Budget", formatDollarsExact(dollarsToCents(receipt.budget))]);
    if (receipt.urgentSurcharge > 0) lines.push(["Urgent surcharge", formatDollarsExact(dollarsToCents(receipt.urgentSurcharge))]);
    lines.push(["Service fee", formatDollarsExact(dollarsToCents(receipt.serviceFee))]);
    lines.push([`Total charged to ${card}`, formatDollarsExact(dollarsToCents(receipt.amount))]);
  } else if (receipt.kind === "tip") {
    lines.push([`Tip charged to ${card}`, formatDollarsExact(dollarsToCents(receipt.amount))]);
  } else if (receipt.account) {
    // The refund in the task's account: paid, refunded before, this refund, and the net cost last.
    const { paid, refunded, cost, reason } = receipt.account;
    if (reason) lines.push(["Why", reason]);
    lines.push(["Paid for this task", formatDollarsExact(dollarsToCents(paid))]);
    const before = dollarsToCents(refunded) - dollarsToCents(receipt.amount);
    if (before > 0) lines.push(["Refunded before", formatDollarsExact(before)]);
    lines.push([`Refunded to ${card}`, formatDollarsExact(dollarsToCents(receipt.amount))]);
    lines.push(["Your cost for this task", formatDollarsExact(dollarsToCents(cost))]);
  } else {
    lines.push(["Task total paid", formatDollarsExact(dollarsToCents(receipt.total))]);
    lines.push([`Refunded to ${card}`, formatDollarsExact(dollarsToCents(receipt.amount))]);
  }
  return lines;
}

export const receiptListSchema = z.object({
  receipts: z.array(receiptSchema.pick({ id: true, number: true, kind: true, issuedAt: true, amount: true, task: true })),
});
export type ReceiptList = z.infer<typeof receiptListSchema>;

/**
 * The US federal Form 1099-K reporting threshold: a payment platform files the form for a payee
 * paid more than $20,000 in more than 200 transactions in a calendar year (docs/product.md, Money).
 */
export const FORM_1099K_THRESHOLD_CENTS = 2_000_000;
export const FORM_1099K_THRESHOLD_TRANSACTIONS = 200;

export const statementYearParamsSchema = z.object({
  year: z.coerce
    .number({ error: "year must be a number" })
    .int({ error: "year must be a whole number" })
    .min(2000, { error: "year must be 2000 or later" })
    .max(2100, { error: "year must be 2100 or earlier" }),
});

export const yearlyStatementSchema = z.object({
  year: z.number().int(),
  /** What posters paid for the work released to the provider: budgets and urgent surcharges. */
  gross: z.number(),
  /** The platform's commission kept from that work. */
  fees: z.number(),
  /** Late-cancellation fees, the provider's in full: not work, so not in gross. */
  lateFees: z.number(),
  /** Refunds an admin recovered from the provider's balance (decision 057). */
  recovered: z.number(),
  tips: z.number(),
  /** Released work after fees, late fees and tips, less recoveries: what reached the provider's balance. */
  net: z.number(),
  payouts: z.number(),
  /** Payments for work plus tips, the count the 1099-K threshold speaks of. */
  transactions: z.number().int(),
  /** Whether the year passed both parts of the 1099-K threshold. */
  overReportingThreshold: z.boolean(),
  providerName: z.string(),
});
export type YearlyStatement = z.infer<typeof yearlyStatementSchema>;

/** The statement's lines in words, shared by the page and the PDF (a late fee and a recovery are lines of their own). */
export function statementLines(statement: YearlyStatement): [label: string, value: string][] {
  const money = (dollars: number) => formatDollarsExact(dollarsToCents(dollars));
  return [
    ["Gross (budgets and urgent surcharges of released work)", money(statement.gross)],
    ["Platform fees", money(statement.fees)],
    ...(statement.lateFees > 0 ? [["Late-cancellation fees (yours in full)", money(statement.lateFees)] as [string, string]] : []),
    ...(statement.recovered > 0 ? [["Refunds recovered from you", `-${money(statement.recovered)}`] as [string, string]] : []),
    ["Tips", money(statement.tips)],
    ["Net earnings", money(statement.net)],
    ["Payouts sent", money(statement.payouts)],
    ["Transactions (paid tasks, late fees and tips)", String(statement.transactions)],
  ];
}

/** The plain note on the federal 1099-K threshold, on the statement page and its PDF alike. */
export function form1099kNote(statement: Pick<YearlyStatement, "overReportingThreshold">): string {
  const threshold =
    `Payment platforms report a provider's gross payments to the IRS on Form 1099-K when they pass ` +
    `${formatDollarsExact(FORM_1099K_THRESHOLD_CENTS)} and ${FORM_1099K_THRESHOLD_TRANSACTIONS} transactions in a calendar year.`;
  const yours = statement.overReportingThreshold ? " This year passed both, so a 1099-K will be filed." : " This year did not pass both.";
  return `${threshold}${yours} Your earnings may be taxable either way; keep this statement for your records.`;
}

export const payoutHistorySchema = z.object({
  payouts: z.array(
    z.object({
      id: z.uuid(),
      amount: z.number(),
      status: z.enum(PAYOUT_STATUSES),
      createdAt: z.string(),
      paidAt: z.string().nullable(),
      /** The tasks whose released money or tips this payout carried. */
      tasks: z.array(z.object({ id: z.uuid(), title: z.string() })),
    }),
  ),
  /** Calendar years with money on the provider's balance, newest first: the statements on offer. */
  years: z.array(z.number().int()),
});
export type PayoutHistory = z.infer<typeof payoutHistorySchema>;

/** Admin ledger search: every filter optional; `after` is the last entry id of the page before. */
const LEDGER_PAGE_SIZE = 50;
const optionalText = (field: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: `${field} must be at most ${max} characters` })
    .optional()
    .transform((v) => (v ? v : undefined));
const optionalDate = (field: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: `${field} must be a date written YYYY-MM-DD` })
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), { error: `${field} must be a real calendar date` })
    .optional()
    .or(z.literal("").transform(() => undefined));

export const ledgerSearchQuerySchema = z.object({
  account: optionalText("account", 200),
  taskId: z.uuid({ error: "taskId must be a task's id (a UUID)" }).optional().or(z.literal("").transform(() => undefined)),
  from: optionalDate("from"),
  to: optionalDate("to"),
  after: z.coerce.number({ error: "after must be a number" }).int().positive({ error: "after must be a positive number" }).optional(),
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int({ error: "limit must be a whole number" })
    .min(1, { error: "limit must be 1 to 100" })
    .max(100, { error: "limit must be 1 to 100" })
    .default(LEDGER_PAGE_SIZE),
});
export type LedgerSearchQuery = z.infer<typeof ledgerSearchQuerySchema>;

export const ledgerEntrySchema = z.object({
  id: z.number().int(),
  transactionId: z.uuid(),
  kind: z.enum(LEDGER_KINDS),
  account: z.string(),
  amount: z.number(),
  taskId: z.uuid().nullable(),
  taskTitle: z.string().nullable(),
  memo: z.string().nullable(),
  createdAt: z.string(),
});
export const ledgerPageSchema = z.object({
  entries: z.array(ledgerEntrySchema),
  /** The `after` of the next page; null on the last page. */
  next: z.number().int().nullable(),
});
export type LedgerPage = z.infer<typeof ledgerPageSchema>;
