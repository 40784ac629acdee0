// The payments feature's read models (docs/decisions/008-payments-and-ledger.md): the task page's
// escrow panel, the provider's earnings and the admin's finance totals. Balances come from the
// ledger (repository.ts); the money records only say which state each task's money is in.
import { and, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { centsToDollars, priceTask } from "../../../shared/money.js";
import type { AdminFinance, EarningStatus, Earnings, TaskEscrow } from "../../../shared/payments.js";
import type { AppContext } from "../../context.js";
import { queryRows } from "../../db/client.js";
import { taskHasOpenDisputeSql } from "../../db/disputes.js";
import { escrowHolds, ledgerEntries, ledgerTransactions, payouts, tips } from "../../db/schema/payments.js";
import { tasks } from "../../db/schema/tasks.js";
import { forbidden } from "../../http-errors.js";
import { isPartyOrAdmin, type Viewer } from "../../policy.js";
import type { TaskRow } from "../../transition-actions.js";
import { ACCOUNTS, accountBalance, findHold, findProviderProfile, type HoldRow } from "./repository.js";

/** Sum of all accounts whose name starts with the prefix (e.g. every escrow). */
async function prefixBalance(ctx: AppContext, prefix: string): Promise<number> {
  const [row] = await queryRows<{ total: string | null }>(
    ctx.db,
    sql`select sum(amount_cents) as total from ledger_entries where account like ${`${prefix}%`}`,
  );
  return Number(row?.total ?? 0);
}

/** The ledger kinds that give a poster money back: a refund, a dispute's split, the guarantee. */
const REFUNDING_KINDS = ["refund", "split", "guarantee"] as const;

function escrowStatus(value: HoldRow["status"] | null): TaskEscrow["status"] {
  return value ?? "none";
}

export async function escrowOfTask(ctx: AppContext, task: TaskRow, viewer: Viewer): Promise<TaskEscrow> {
  if (!isPartyOrAdmin(viewer, [task.userId, task.providerId])) {
    throw forbidden("Only the poster and the assigned provider can see this task's payment");
  }
  const hold = await findHold(ctx, task.id);
  const [tipRow] = await ctx.db
    .select({ total: sql<string | null>`sum(${tips.amountCents})` })
    .from(tips)
    .where(and(eq(tips.taskId, task.id), eq(tips.status, "captured")));
  // What the ledger moved from this task's escrow to the refunds account, and when it last did.
  const [refundRow] = await ctx.db
    .select({
      total: sql<string | null>`sum(${ledgerEntries.amountCents})`,
      at: sql<Date | string | null>`max(${ledgerTransactions.createdAt})`,
    })
    .from(ledgerTransactions)
    .innerJoin(ledgerEntries, eq(ledgerEntries.transactionId, ledgerTransactions.id))
    .where(and(eq(ledgerTransactions.taskId, task.id), inArray(ledgerTransactions.kind, REFUNDING_KINDS), eq(ledgerEntries.account, ACCOUNTS.refunds)));
  const refundedCents = Number(refundRow?.total ?? 0);
  return {
    refund:
      refundedCents > 0 && refundRow?.at
        ? { amount: centsToDollars(refundedCents), refundedAt: new Date(refundRow.at).toISOString() }
        : null,
    paid: task.paymentCapturedAt !== null,
    status: escrowStatus(hold?.status ?? null),
    releaseAt: hold ? hold.releaseAt.toISOString() : null,
    total: centsToDollars(task.totalCents),
    providerShare: centsToDollars(priceTask(task.budgetCents, task.urgency).providerShareCents),
    tips: centsToDollars(Number(tipRow?.total ?? 0)),
    disputeReason: hold?.disputeReason ?? null,
  };
}

interface EarningFacts {
  hold: HoldRow["status"] | null;
  paymentStands: boolean;
  openDispute: boolean;
  /** An admin's resolution split the escrow (a `split` ledger transaction). */
  split: boolean;
  /** What the ledger credited this provider for the task (release, split, late fee). */
  receivedCents: number;
}

/** A paid task's money as its provider sees it (shared/payments.ts, EARNING_STATUSES). */
function earningStatus(facts: EarningFacts): EarningStatus {
  // A resolution decides it whatever the task's stage was: a claimed or started task has no escrow
  // hold, so before this its split read "In progress" (docs/product.md, Money: disputes).
  if (facts.split) return facts.receivedCents > 0 ? "settled" : "refunded";
  if (facts.hold === "released") return "released";
  // An open dispute holds the money before completion too, not only a completed task's hold.
  if (facts.hold === "disputed" || facts.openDispute) return "under_review";
  if (facts.hold === "holding") return "held";
  // A refunded escrow, or no escrow and no captured payment left: a paid task cancelled before
  // completion, whose payment was refunded in full.
  if (facts.hold === "refunded" || !facts.paymentStands) return "refunded";
  return "in_progress";
}

export async function earnings(ctx: AppContext, providerId: string): Promise<Earnings> {
  const account = ACCOUNTS.providerBalance(providerId);
  // The release and the refund as the ledger wrote them: the amount this provider received and
  // when, and when the money went back to the poster (docs/decisions/008-payments-and-ledger.md).
  const released = sql`(select lt.id, lt.created_at, e.amount_cents from ledger_transactions lt
    join ledger_entries e on e.transaction_id = lt.id
    where lt.task_id = ${tasks.id} and lt.kind in ('release', 'split', 'late_fee') and e.account = ${account})`;
  const rows = await ctx.db
    .select({
      taskId: tasks.id,
      title: tasks.title,
      budgetCents: tasks.budgetCents,
      urgency: tasks.urgency,
      completedAt: tasks.completedAt,
      holdStatus: escrowHolds.status,
      releaseAt: escrowHolds.releaseAt,
      tips: sql<string>`(select coalesce(sum(t.amount_cents), 0) from tips t where t.task_id = ${tasks.id} and t.status = 'captured')`,
      paymentStands: sql<boolean>`exists (select 1 from payments p where p.task_id = ${tasks.id} and p.status = 'captured')`,
      releasedCents: sql<string | null>`(select sum(r.amount_cents) from ${released} r)`,
      releasedAt: sql<Date | string | null>`(select max(r.created_at) from ${released} r)`,
      refundedAt: sql<Date | string | null>`(select max(lt.created_at) from ledger_transactions lt where lt.task_id = ${tasks.id} and lt.kind in ('refund', 'split'))`,
      refundedCents: sql<string | null>`(select sum(e.amount_cents) from ledger_transactions lt
        join ledger_entries e on e.transaction_id = lt.id
        where lt.task_id = ${tasks.id} and lt.kind in ('refund', 'split', 'guarantee') and e.account = ${ACCOUNTS.refunds})`,
      split: sql<boolean>`exists (select 1 from ledger_transactions lt where lt.task_id = ${tasks.id} and lt.kind = 'split')`,
      openDispute: taskHasOpenDisputeSql(),
    })
    .from(tasks)
    .leftJoin(escrowHolds, eq(escrowHolds.taskId, tasks.id))
    .where(and(eq(tasks.providerId, providerId), isNotNull(tasks.paymentCapturedAt)))
    .orderBy(desc(tasks.createdAt))
    .limit(200);
  const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
  let held = 0;
  const list = rows.map((r) => {
    const share = priceTask(r.budgetCents, r.urgency).providerShareCents;
    const receivedCents = Number(r.releasedCents ?? 0);
    const status = earningStatus({ hold: r.holdStatus, paymentStands: r.paymentStands, openDispute: r.openDispute, split: r.split, receivedCents });
    if (status === "held" || status === "under_review") held += share;
    const moved = status === "released" || status === "settled";
    const earnedCents = status === "refunded" ? 0 : moved ? receivedCents : share;
    return {
      taskId: r.taskId,
      title: r.title,
      status,
      earned: centsToDollars(earnedCents),
      tips: centsToDollars(Number(r.tips)),
      refundedToPoster: centsToDollars(Number(r.refundedCents ?? 0)),
      releaseAt: status === "held" && r.releaseAt ? r.releaseAt.toISOString() : null,
      releasedAt: moved ? iso(r.releasedAt) : null,
      refundedAt: status === "refunded" ? iso(r.refundedAt) : null,
      completedAt: r.completedAt ? r.completedAt.toISOString() : null,
    };
  });
  const [paid] = await ctx.db
    .select({ total: sql<string | null>`sum(${payouts.amountCents})` })
    .from(payouts)
    .where(eq(payouts.providerId, providerId));
  const profile = await findProviderProfile(ctx, providerId);
  return {
    held: centsToDollars(held),
    available: centsToDollars(await accountBalance(ctx, ACCOUNTS.providerBalance(providerId))),
    paidOut: centsToDollars(Number(paid?.total ?? 0)),
    payoutsEnabled: profile?.payoutsEnabled ?? false,
    tasks: list,
  };
}

/** The platform's money totals; the admin route adds the open disputes (disputes.ts). */
export async function adminFinance(ctx: AppContext): Promise<Omit<AdminFinance, "disputes">> {
  return {
    escrowHeld: centsToDollars(await prefixBalance(ctx, "escrow:task:")),
    platformRevenue: centsToDollars(await accountBalance(ctx, ACCOUNTS.revenue)),
    providerBalances: centsToDollars(await prefixBalance(ctx, "provider:")),
    paidOut: centsToDollars(await accountBalance(ctx, ACCOUNTS.payouts)),
    refunded: centsToDollars(await accountBalance(ctx, ACCOUNTS.refunds)),
    guaranteeBalance: centsToDollars(await accountBalance(ctx, ACCOUNTS.guarantee)),
  };
}
