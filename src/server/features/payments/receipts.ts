import { centsToDollars } from "../../../shared/money.js";
import { displayName } from "../../../shared/names.js";
import { RECEIPT_TITLES, receiptLines, type Receipt, type ReceiptKind } from "../../../shared/receipts.js";
import type { LedgerKind } from "../../../shared/money-lifecycle.js";
import { refundReasonWords } from "../../../shared/statement-words.js";
import { statementTotals, type TaskStatement } from "../../../shared/task-statement.js";
import type { NotifyInput } from "../../notify.js";

// A receipt is a view of one ledger transaction (docs/decisions/060-receipts-from-the-ledger.md):
// any transaction that takes money from the poster's card or gives money back to it has one, whatever
// its kind. The repository reads the transaction's postings on those two outside accounts
// (`paidCents`, `refundedCents`); this file turns them into the receipt. A new way of refunding that
// posts to the refunds account gets its receipt, page, e-mail and PDF without code here.

/** One ledger transaction with the facts its receipt names, as the repository reads them. */
export interface ReceiptRow {
  id: string;
  kind: LedgerKind;
  createdAt: Date;
  /** Taken from the poster's card: the transaction's debit of the poster-payments account. */
  paidCents: number;
  /** Given back to the poster's card: its credit of the refunds account. */
  refundedCents: number;
  cardLast4: string | null;
  task: {
    id: string;
    title: string;
    scheduledDate: Date | null;
    budgetCents: number;
    urgentFeeCents: number;
    serviceFeeCents: number;
    totalCents: number;
  };
  payer: { firstName: string; lastName: string };
  provider: { firstName: string; lastName: string } | null;
  /** The task's statement, for a refund's place in its account (refundAccount). */
  statement: TaskStatement | null;
}

/** What the receipt is for; null when the transaction did not touch the poster's card (a release, a payout). */
export function receiptKind(row: Pick<ReceiptRow, "kind" | "paidCents" | "refundedCents">): { kind: ReceiptKind; amountCents: number } | null {
  if (row.paidCents > 0) return { kind: row.kind === "tip" ? "tip" : "payment", amountCents: row.paidCents };
  if (row.refundedCents > 0) return { kind: "refund", amountCents: row.refundedCents };
  return null;
}

/** "ER-20261128-3F2A9C1B": the date it was issued and the transaction id's first eight digits. */
export function receiptNumber(id: string, issuedAt: Date): string {
  const day = issuedAt.toISOString().slice(0, 10).replaceAll("-", "");
  return `ER-${day}-${id.replaceAll("-", "").slice(0, 8).toUpperCase()}`;
}

/**
 * A refund's place in its task's account, from the statement's lines up to and including it (the
 * ledger before a transaction never changes, so this is what it was when the refund was issued):
 * what the poster had paid, what had come back, the net cost, and why this came back.
 */
export function refundAccount(statement: TaskStatement, transactionId: string): NonNullable<Receipt["account"]> | null {
  const last = statement.lines.findLastIndex((l) => l.transactionId === transactionId);
  if (last < 0) return null;
  const upTo = { lines: statement.lines.slice(0, last + 1) };
  const { paymentsCents, refundedCents } = statementTotals(upTo);
  // The refund's own line: a split's transaction also pays the provider and the platform.
  const line = statement.lines.find((l) => l.transactionId === transactionId && (l.kind === "refund" || l.kind === "dispute_refund" || l.kind === "guarantee_refund"));
  return {
    paid: centsToDollars(paymentsCents),
    refunded: centsToDollars(refundedCents),
    cost: centsToDollars(paymentsCents - refundedCents),
    reason: line ? refundReasonWords(line) : null,
  };
}

/** The function from a ledger transaction to its receipt; null when it has none. */
export function receiptOf(row: ReceiptRow): Receipt | null {
  const what = receiptKind(row);
  if (!what) return null;
  return {
    id: row.id,
    number: receiptNumber(row.id, row.createdAt),
    kind: what.kind,
    issuedAt: row.createdAt.toISOString(),
    amount: centsToDollars(what.amountCents),
    budget: centsToDollars(row.task.budgetCents),
    urgentSurcharge: centsToDollars(row.task.urgentFeeCents),
    serviceFee: centsToDollars(row.task.serviceFeeCents),
    total: centsToDollars(row.task.totalCents),
    cardLast4: row.cardLast4,
    account: what.kind === "refund" && row.statement ? refundAccount(row.statement, row.id) : null,
    task: {
      id: row.task.id,
      title: row.task.title,
      scheduledDate: row.task.scheduledDate ? row.task.scheduledDate.toISOString() : null,
      providerName: row.provider ? displayName(row.provider) : null,
    },
    payerName: `${row.payer.firstName} ${row.payer.lastName}`.trim(),
  };
}

/** The receipt's e-mail and bell notice to the person who paid. */
export function receiptNotice(receipt: Receipt, payerId: string, publicUrl: string): NotifyInput {
  const lines = receiptLines(receipt)
    .map(([label, value]) => `${label}: ${value}`)
    .join("\n");
  const provider = receipt.task.providerName ? ` with ${receipt.task.providerName}` : "";
  return {
    userId: payerId,
    kind: "receipt",
    title: `${RECEIPT_TITLES[receipt.kind]} ${receipt.number}`,
    body:
      // A display name ends in its initial's period ("Devon P."): the sentence does not add another.
      `Your receipt for "${receipt.task.title}"${provider}`.replace(/\.?$/, ".") +
      `\n\n${lines}\n\n` +
      `View or download it as a PDF: ${publicUrl}/receipts/${receipt.id}`,
    taskId: receipt.task.id,
  };
}
