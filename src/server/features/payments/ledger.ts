import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { queryRows } from "../../db/client.js";
import { ledgerEntries, ledgerTransactions } from "../../db/schema/payments.js";

// Double-entry ledger in integer cents (docs/decisions/008-payments-and-ledger.md). A posting adds
// its amount to an account's balance; the postings of one transaction sum to zero, so money is
// only ever moved, never made. Entries are append-only: a trigger refuses UPDATE and DELETE (drizzle/0001_ledger_append_only.sql).

export const ACCOUNTS = {
  posterPayments: "external:poster_payments",
  payouts: "external:payouts",
  refunds: "external:refunds",
  revenue: "platform:revenue",
  escrow: (taskId: string) => `escrow:task:${taskId}`,
  providerBalance: (userId: string) => `provider:${userId}:balance`,
} as const;

export const LEDGER_KINDS = ["capture", "release", "refund", "tip", "payout"] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export interface Posting {
  account: string;
  amountCents: number;
}

export interface LedgerTransactionInput {
  kind: LedgerKind;
  /** Unique per kind: the task id for capture/release/refund, the tip or payout id otherwise. */
  key: string;
  taskId: string | null;
  createdBy?: string | null;
  memo?: string;
  postings: Posting[];
}

export class UnbalancedTransactionError extends Error {}

/**
 * Records a balanced transaction; returns its id, or null when (kind, key) was already recorded
 * (the money moved before, so it must not move again).
 */
export async function recordTransaction(tx: Db, input: LedgerTransactionInput): Promise<string | null> {
  const postings = input.postings.filter((p) => p.amountCents !== 0);
  const sum = postings.reduce((s, p) => s + p.amountCents, 0);
  if (postings.length < 2 || sum !== 0 || postings.some((p) => !Number.isSafeInteger(p.amountCents))) {
    throw new UnbalancedTransactionError(`Ledger transaction ${input.kind}:${input.key} does not balance (${sum})`);
  }
  const [created] = await tx
    .insert(ledgerTransactions)
    .values({
      kind: input.kind,
      idempotencyKey: input.key,
      taskId: input.taskId,
      createdBy: input.createdBy ?? null,
      memo: input.memo ?? null,
    })
    .onConflictDoNothing({ target: [ledgerTransactions.kind, ledgerTransactions.idempotencyKey] })
    .returning({ id: ledgerTransactions.id });
  if (!created) return null;
  await tx.insert(ledgerEntries).values(postings.map((p) => ({ transactionId: created.id, account: p.account, amountCents: p.amountCents })));
  return created.id;
}

export async function accountBalance(db: Db, account: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string | null>`sum(${ledgerEntries.amountCents})` })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.account, account));
  return Number(row?.total ?? 0);
}

/** Balances of several accounts at once; missing accounts are 0. */
export async function accountBalances(db: Db, accounts: string[]): Promise<Map<string, number>> {
  const result = new Map(accounts.map((a) => [a, 0]));
  if (accounts.length === 0) return result;
  const rows = await db
    .select({ account: ledgerEntries.account, total: sql<string>`sum(${ledgerEntries.amountCents})` })
    .from(ledgerEntries)
    .where(inArray(ledgerEntries.account, accounts))
    .groupBy(ledgerEntries.account);
  for (const row of rows) result.set(row.account, Number(row.total));
  return result;
}

/** Sum of all accounts whose name starts with the prefix (e.g. every escrow). */
export async function prefixBalance(db: Db, prefix: string): Promise<number> {
  const [row] = await queryRows<{ total: string | null }>(
    db,
    sql`select sum(amount_cents) as total from ledger_entries where account like ${`${prefix}%`}`,
  );
  return Number(row?.total ?? 0);
}

