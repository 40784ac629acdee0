import { asc, desc, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import {
  DISPUTE_REASON_LABELS,
  disputeEscalated,
  type DisputeReason,
  type ReportProblemBody,
  type TaskDispute,
  type TaskDisputeAnswer,
} from "../../../shared/disputes.js";
import type { MoneyRequester } from "../../../shared/money-lifecycle.js";
import { centsToDollars, disputeSplit, dollarsToCents, formatDollarsExact } from "../../../shared/money.js";
import { statementWords } from "../../../shared/statement-words.js";
import { mostDisputeRefundCents, statementTotals, type TaskStatement } from "../../../shared/task-statement.js";
import type { AdminFinance } from "../../../shared/payments.js";
import type { Db } from "../../db/client.js";
import { loadTaskStatement, loadTaskStatements } from "../../db/task-statements.js";
import { disputeMessages, disputes } from "../../db/schema/payments.js";
import { tasks } from "../../db/schema/tasks.js";
import { users } from "../../db/schema/users.js";
import { conflict, forbidden, namedFieldError, notFound } from "../../http-errors.js";
import { isPartyOrAdmin, viewerOf, type Viewer } from "../../policy.js";
import { recordTaskEvent, type MoneyActionEvent, type TaskRow } from "../../transition-actions.js";
import { attachDisputePhotos, photosOfMessages, withDisputePhotos, type DisputePhotoDeps } from "./dispute-photos.js";
import { moneyWhereabouts, runMoneyRow } from "./money-actions.js";
import { ACCOUNTS, accountBalance } from "./ledger.js";
import { disputeMoveRefusal, disputeStateRefusal, moveDispute, noteAdminAction, type DisputeRow } from "./money-records.js";
import { findTask, openDisputeOf } from "./repository.js";
import type { PaymentsContext } from "./service.js";

// Reporting a problem on a paid task, the parties' thread, and an admin's resolution with any split
// in cents (docs/product.md, Money: disputes; docs/decisions/057-disputes-guarantee-late-cancellation.md).
// Opening and resolving are the money table's "dispute" rows, made only by moveDispute (money-records.ts),
// which reads their actor, guards, states and refusal texts from DISPUTE_TRANSITIONS; their consequences
// are the rows' named actions.

type Admin = NonNullable<MoneyActionEvent["admin"]>;

function partyOf(task: TaskRow, userId: string): Exclude<MoneyRequester, string> & { provider: boolean } {
  return { poster: task.userId === userId, provider: task.providerId === userId, admin: false };
}

async function taskOf(ctx: PaymentsContext, taskId: string, tx?: Db, lock = false): Promise<TaskRow> {
  if (lock && tx) {
    const [row] = await tx.select().from(tasks).where(eq(tasks.id, taskId)).for("update");
    if (!row) throw notFound("Task not found");
    return row;
  }
  const task = await findTask(ctx, taskId, tx);
  if (!task) throw notFound("Task not found");
  return task;
}

/** Either party reports a problem: the dispute, its first message and its photos, then the row's actions. */
export async function reportProblem(
  ctx: PaymentsContext,
  photos: DisputePhotoDeps,
  taskId: string,
  userId: string,
  input: Omit<ReportProblemBody, "photoURLs"> & { reason: DisputeReason; photoURLs: string[] },
): Promise<void> {
  const task = await taskOf(ctx, taskId);
  const who = partyOf(task, userId);
  // Cheap refusals first (the row's actor and guards): no image work for a report that cannot be made now.
  const early = disputeMoveRefusal("open", task, who, ctx.now());
  if (early) throw early;
  await withDisputePhotos(ctx, photos, userId, input.photoURLs, (prepared) =>
    ctx.db.transaction(async (tx) => {
      // Under the task's row lock, so a cancel or a completion waits for the dispute (or the other way round).
      const locked = await taskOf(ctx, taskId, tx, true);
      const now = ctx.now();
      const dispute = await moveDispute(ctx, "open", locked, who, { openedBy: userId, reason: input.reason }, tx);
      const [message] = await tx.insert(disputeMessages).values({ disputeId: dispute.id, authorId: userId, body: input.description, createdAt: now }).returning({ id: disputeMessages.id });
      if (!message) throw new Error("dispute message not created");
      await attachDisputePhotos(tx, message.id, prepared, now);
      await runMoneyRow(ctx, "dispute", "open", { task: locked, dispute, actorId: userId, tx, now });
    }),
  );
}

/** A party's side with its photos, or an admin's note (which counts as the admin acting on it); the others are told. */
export async function addDisputeMessage(
  ctx: PaymentsContext,
  photos: DisputePhotoDeps,
  taskId: string,
  user: Viewer,
  input: { body: string; photoURLs: string[] },
): Promise<void> {
  const task = await taskOf(ctx, taskId);
  const isAdmin = user.admin;
  const who = partyOf(task, user.id);
  if (!isAdmin && !who.poster && !who.provider) throw forbidden("Only the task's poster, its provider and admins can write in its dispute");
  const noDispute = () => conflict("There is no open dispute on this task. Report a problem to open one.");
  // Cheap refusal first: no image work for a thread that is closed.
  if (!(await openDisputeOf(ctx, taskId))) throw noDispute();
  await withDisputePhotos(ctx, photos, user.id, input.photoURLs, (prepared) => ctx.db.transaction(async (tx) => {
    const dispute = await openDisputeOf(ctx, taskId, tx);
    if (!dispute) throw noDispute();
    const now = ctx.now();
    const [message] = await tx.insert(disputeMessages).values({ disputeId: dispute.id, authorId: user.id, body: input.body, createdAt: now }).returning({ id: disputeMessages.id });
    if (!message) throw new Error("dispute message not created");
    await attachDisputePhotos(tx, message.id, prepared, now);
    if (isAdmin) await noteAdminAction(tx, dispute.id, now);
    await recordTaskEvent(ctx.taskEventActions, "dispute_message", { taskId, actorId: user.id, tx, now, task, byAdmin: isAdmin });
  }));
}

/**
 * An admin's resolution: `refund` dollars to the poster. While the escrow holds money the rest of
 * it is released (the provider's share of it by disputeSplit, which the admin's confirmation states
 * first); once released, the refund is paid by the guarantee account, recovered from the provider
 * only when the admin says so.
 */
export async function resolveDispute(
  ctx: PaymentsContext,
  taskId: string,
  admin: Admin,
  input: { refund: number; reason: string; recoverFromProvider: boolean },
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const task = await taskOf(ctx, taskId, tx, true);
    const requester = { poster: false, admin: viewerOf(admin).admin };
    if (!(await openDisputeOf(ctx, taskId, tx))) throw await disputeStateRefusal(tx, "resolve", taskId, requester, ctx.now());
    const held = await accountBalance(ctx, ACCOUNTS.escrow(taskId), tx);
    const refundCents = dollarsToCents(input.refund);
    // Never more than the poster paid, less what was already given back (a cancel's refund, an earlier dispute).
    const most = mostDisputeRefundCents({ ...statementTotals(await loadTaskStatement(tx, taskId)), heldCents: held });
    if (refundCents < 0 || refundCents > most) {
      throw namedFieldError("refund", `must be between $0.00 and ${formatDollarsExact(most)}, the most ${held > 0 ? "the escrow holds" : "the poster paid and was not refunded yet"}`);
    }
    // The provider's part by the pro-rata rule on the share fixed when the task was priced.
    const split = disputeSplit(task, held, refundCents);
    const now = ctx.now();
    const dispute = await moveDispute(
      ctx,
      "resolve",
      task,
      requester,
      {
        resolvedAt: now,
        resolvedBy: admin.id,
        lastAdminActionAt: now,
        resolutionReason: input.reason,
        refundCents: held > 0 ? refundCents : 0,
        releaseCents: split.releaseCents,
        providerShareCents: split.providerShareCents,
        guaranteeCents: held > 0 ? 0 : refundCents,
        recoverFromProvider: held === 0 && input.recoverFromProvider,
      },
      tx,
    );
    await runMoneyRow(ctx, "dispute", "resolve", { task, dispute, admin, actorId: admin.id, tx, now });
  });
}

// ---------------------------------------------------------------------------------------------
// Reads.

function outcomeOf(dispute: DisputeRow): TaskDispute["resolution"] {
  if (dispute.status !== "resolved" || !dispute.resolvedAt) return null;
  return {
    reason: dispute.resolutionReason ?? "",
    refund: centsToDollars((dispute.refundCents ?? 0) + (dispute.guaranteeCents ?? 0)),
    release: centsToDollars(dispute.releaseCents ?? 0),
    providerShare: centsToDollars(dispute.providerShareCents ?? 0),
    fromGuarantee: centsToDollars(dispute.guaranteeCents ?? 0),
    recoveredFromProvider: dispute.recoverFromProvider === true,
    resolvedAt: dispute.resolvedAt.toISOString(),
  };
}

/** What a resolution did to the money, in the statement's words for this party or admin. */
function resolvedWords(statement: TaskStatement, viewer: Viewer, task: TaskRow): string {
  const words = statementWords(statement, viewer.id === task.userId ? { role: "poster" } : viewer.id === task.providerId ? { role: "provider", id: viewer.id } : { role: "admin" });
  return words.rule ? `${words.summary} ${words.rule}` : words.summary;
}

/** The task's latest dispute and its thread, for its parties and admins. */
export async function taskDispute(ctx: PaymentsContext, taskId: string, viewer: Viewer): Promise<TaskDisputeAnswer> {
  const task = await taskOf(ctx, taskId);
  const who = partyOf(task, viewer.id);
  if (!isPartyOrAdmin(viewer, [task.userId, task.providerId])) throw forbidden("Only the task's poster, its provider and admins can see its dispute");
  const [latest] = await ctx.db.select().from(disputes).where(eq(disputes.taskId, taskId)).orderBy(desc(disputes.createdAt)).limit(1);
  const held = await accountBalance(ctx, ACCOUNTS.escrow(taskId));
  const canReport = latest?.status !== "open" && disputeMoveRefusal("open", task, who, ctx.now()) === null;
  if (!latest) return { dispute: null, canReport, held: centsToDollars(held) };
  const rows = await ctx.db
    .select({ id: disputeMessages.id, authorId: disputeMessages.authorId, body: disputeMessages.body, createdAt: disputeMessages.createdAt, first: users.firstName, last: users.lastName })
    .from(disputeMessages)
    .innerJoin(users, eq(users.id, disputeMessages.authorId))
    .where(eq(disputeMessages.disputeId, latest.id))
    .orderBy(asc(disputeMessages.seq));
  const photos = await photosOfMessages(ctx.db, rows.map((m) => m.id));
  const roleOf = (authorId: string) => (authorId === task.userId ? "poster" : authorId === task.providerId ? "provider" : "admin");
  const resolution = outcomeOf(latest);
  return {
    canReport,
    held: centsToDollars(held),
    dispute: {
      id: latest.id,
      status: latest.status,
      reason: latest.reason as DisputeReason,
      openedByRole: latest.openedBy === task.userId ? "poster" : "provider",
      createdAt: latest.createdAt.toISOString(),
      // A resolved dispute reads as the statement tells it to this person, rule and all.
      moneyNow: resolution ? resolvedWords(await loadTaskStatement(ctx.db, taskId), viewer, task) : await moneyWhereabouts(ctx, task, ctx.db),
      messages: rows.map((m) => ({
        id: m.id,
        authorName: roleOf(m.authorId) === "admin" ? "Errandly support" : `${m.first} ${m.last.slice(0, 1)}.`,
        authorRole: roleOf(m.authorId),
        body: m.body,
        createdAt: m.createdAt.toISOString(),
        photos: photos.get(m.id) ?? [],
      })),
      resolution,
    },
  };
}

/** Open disputes, oldest first, each with what its escrow holds, its age, and whether it is escalated. */
export async function openDisputes(ctx: PaymentsContext): Promise<AdminFinance["disputes"]> {
  const poster = alias(users, "poster");
  const provider = alias(users, "provider");
  const rows = await ctx.db
    .select({
      taskId: tasks.id,
      title: tasks.title,
      posterFirst: poster.firstName,
      posterLast: poster.lastName,
      providerFirst: provider.firstName,
      providerLast: provider.lastName,
      reason: disputes.reason,
      createdAt: disputes.createdAt,
      lastAdminActionAt: disputes.lastAdminActionAt,
    })
    .from(disputes)
    .innerJoin(tasks, eq(tasks.id, disputes.taskId))
    .innerJoin(poster, eq(poster.id, tasks.userId))
    .leftJoin(provider, eq(provider.id, tasks.providerId))
    .where(eq(disputes.status, "open"))
    .orderBy(asc(disputes.createdAt))
    .limit(200);
  const now = ctx.now();
  // What the poster paid and what the escrow holds, as each task's statement tells it.
  const statements = await loadTaskStatements(ctx.db, rows.map((d) => d.taskId));
  return rows.map((d) => {
    const totals = statementTotals(statements.get(d.taskId) ?? { lines: [] });
    return {
      taskId: d.taskId,
      title: d.title,
      posterName: `${d.posterFirst} ${d.posterLast}`,
      providerName: d.providerFirst ? `${d.providerFirst} ${d.providerLast ?? ""}`.trim() : "",
      total: centsToDollars(totals.paymentsCents - totals.refundedCents),
      held: centsToDollars(totals.heldCents),
      reason: DISPUTE_REASON_LABELS[d.reason as DisputeReason],
      reportedAt: d.createdAt.toISOString(),
      ageDays: Math.floor((now.getTime() - d.createdAt.getTime()) / 86_400_000),
      escalated: disputeEscalated(d.lastAdminActionAt ?? d.createdAt, now),
    };
  });
}
