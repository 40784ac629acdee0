import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { centsToDollars, priceTask } from "../../../shared/money.js";
import type { AdminFinance, Earnings, TaskEscrow } from "../../../shared/payments.js";
import type { Db } from "../../db/client.js";
import { escrowHolds, payouts, tips } from "../../db/schema/payments.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { tasks } from "../../db/schema/tasks.js";
import { users } from "../../db/schema/users.js";
import { forbidden } from "../../http-errors.js";
import { findHold, findTask } from "./escrow.js";
import { ACCOUNTS, accountBalance, prefixBalance } from "./ledger.js";

// Read models for the task page, the provider's earnings and the admin's finance view. Balances
// come from the ledger; the escrow table only says which state each task's money is in.

function escrowStatus(value: string | null): Earnings["tasks"][number]["escrowStatus"] {
  return value === "holding" || value === "disputed" || value === "released" || value === "refunded" ? value : "none";
}

export async function taskEscrow(db: Db, taskId: string, viewer: { id: string; role: string }): Promise<TaskEscrow> {
  const task = await findTask(db, taskId);
  if (viewer.id !== task.userId && viewer.id !== task.providerId && viewer.role !== "admin") {
    throw forbidden("Only the poster and the assigned provider can see this task's payment");
  }
  const hold = await findHold(db, taskId);
  const [tipRow] = await db
    .select({ total: sql<string | null>`sum(${tips.amountCents})` })
    .from(tips)
    .where(and(eq(tips.taskId, taskId), eq(tips.status, "captured")));
  return {
    paid: task.paymentCapturedAt !== null,
    status: escrowStatus(hold?.status ?? null),
    releaseAt: hold ? hold.releaseAt.toISOString() : null,
    total: centsToDollars(task.totalCents),
    providerShare: centsToDollars(priceTask(task.budgetCents, task.urgency).providerShareCents),
    tips: centsToDollars(Number(tipRow?.total ?? 0)),
    disputeReason: hold?.disputeReason ?? null,
  };
}

export async function earnings(db: Db, providerId: string): Promise<Earnings> {
  const rows = await db
    .select({
      taskId: tasks.id,
      title: tasks.title,
      budgetCents: tasks.budgetCents,
      urgency: tasks.urgency,
      completedAt: tasks.completedAt,
      holdStatus: escrowHolds.status,
      releaseAt: escrowHolds.releaseAt,
      tips: sql<string>`(select coalesce(sum(t.amount_cents), 0) from tips t where t.task_id = ${tasks.id} and t.status = 'captured')`,
    })
    .from(tasks)
    .leftJoin(escrowHolds, eq(escrowHolds.taskId, tasks.id))
    .where(and(eq(tasks.providerId, providerId), isNotNull(tasks.paymentCapturedAt)))
    .orderBy(desc(tasks.createdAt))
    .limit(200);
  let held = 0;
  const list = rows.map((r) => {
    const share = priceTask(r.budgetCents, r.urgency).providerShareCents;
    if (r.holdStatus === "holding" || r.holdStatus === "disputed") held += share;
    return {
      taskId: r.taskId,
      title: r.title,
      escrowStatus: escrowStatus(r.holdStatus),
      providerShare: centsToDollars(share),
      tips: centsToDollars(Number(r.tips)),
      releaseAt: r.releaseAt ? r.releaseAt.toISOString() : null,
      completedAt: r.completedAt ? r.completedAt.toISOString() : null,
    };
  });
  const [paid] = await db
    .select({ total: sql<string | null>`sum(${payouts.amountCents})` })
    .from(payouts)
    .where(eq(payouts.providerId, providerId));
  const [profile] = await db
    .select({ payoutsEnabled: providerProfiles.payoutsEnabled })
    .from(providerProfiles)
    .where(eq(providerProfiles.userId, providerId))
    .limit(1);
  return {
    held: centsToDollars(held),
    available: centsToDollars(await accountBalance(db, ACCOUNTS.providerBalance(providerId))),
    paidOut: centsToDollars(Number(paid?.total ?? 0)),
    payoutsEnabled: profile?.payoutsEnabled ?? false,
    tasks: list,
  };
}

export async function adminFinance(db: Db): Promise<AdminFinance> {
  const poster = alias(users, "poster");
  const provider = alias(users, "provider");
  const disputes = await db
    .select({
      taskId: tasks.id,
      title: tasks.title,
      totalCents: tasks.totalCents,
      posterFirst: poster.firstName,
      posterLast: poster.lastName,
      providerFirst: provider.firstName,
      providerLast: provider.lastName,
      reason: escrowHolds.disputeReason,
      reportedAt: escrowHolds.disputedAt,
    })
    .from(escrowHolds)
    .innerJoin(tasks, eq(tasks.id, escrowHolds.taskId))
    .innerJoin(poster, eq(poster.id, tasks.userId))
    .leftJoin(provider, eq(provider.id, tasks.providerId))
    .where(eq(escrowHolds.status, "disputed"))
    .orderBy(escrowHolds.disputedAt)
    .limit(200);
  return {
    escrowHeld: centsToDollars(await prefixBalance(db, "escrow:task:")),
    platformRevenue: centsToDollars(await accountBalance(db, ACCOUNTS.revenue)),
    providerBalances: centsToDollars(await prefixBalance(db, "provider:")),
    paidOut: centsToDollars(await accountBalance(db, ACCOUNTS.payouts)),
    refunded: centsToDollars(await accountBalance(db, ACCOUNTS.refunds)),
    disputes: disputes.map((d) => ({
      taskId: d.taskId,
      title: d.title,
      posterName: `${d.posterFirst} ${d.posterLast}`,
      providerName: d.providerFirst ? `${d.providerFirst} ${d.providerLast ?? ""}`.trim() : "",
      total: centsToDollars(d.totalCents),
      reason: d.reason ?? "",
      reportedAt: (d.reportedAt ?? new Date(0)).toISOString(),
    })),
  };
}
