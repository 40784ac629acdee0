// The payments feature's read models (docs/decisions/008-payments-and-ledger.md): the task page's
// escrow panel, the provider's earnings and the admin's finance totals. A task's money is read as
// its statement (src/server/db/task-statements.ts); balances come from the ledger (repository.ts).
import { and, desc, eq, or, sql } from "drizzle-orm";
import { centsToDollars } from "../../../shared/money.js";
import { statementAnswer, type AdminFinance, type Earnings, type TaskEscrow } from "../../../shared/payments.js";
import { providerEarning, statementRounds, statementTotals } from "../../../shared/task-statement.js";
import type { AppContext } from "../../context.js";
import { queryRows } from "../../db/client.js";
import { payouts } from "../../db/schema/payments.js";
import { tasks } from "../../db/schema/tasks.js";
import { loadTaskStatement, loadTaskStatements } from "../../db/task-statements.js";
import { forbidden } from "../../http-errors.js";
import { isPartyOrAdmin, type Viewer } from "../../policy.js";
import type { TaskRow } from "../../transition-actions.js";
import { ACCOUNTS, accountBalance } from "./ledger.js";
import type { HoldRow } from "./money-records.js";
import { findHold, findProviderProfile } from "./repository.js";

/** Sum of all accounts whose name starts with the prefix (e.g. every escrow). */
async function prefixBalance(ctx: AppContext, prefix: string): Promise<number> {
  const [row] = await queryRows<{ total: string | null }>(
    ctx.db,
    sql`select sum(amount_cents) as total from ledger_entries where account like ${`${prefix}%`}`,
  );
  return Number(row?.total ?? 0);
}

function escrowStatus(value: HoldRow["status"] | null): TaskEscrow["status"] {
  return value ?? "none";
}

/**
 * A task's money for its poster, a provider it paid or gave back to, and admins: the escrow's state
 * for the buttons, and the task's statement (src/shared/task-statement.ts), from which the page
 * words everything it says about the money. A provider gets the rounds that were theirs only.
 */
export async function escrowOfTask(ctx: AppContext, task: TaskRow, viewer: Viewer): Promise<TaskEscrow> {
  const statement = await loadTaskStatement(ctx.db, task.id);
  const providers = statementRounds(statement).flatMap((round) => (round.providerId ? [round.providerId] : []));
  if (!isPartyOrAdmin(viewer, [task.userId, task.providerId, ...providers])) {
    throw forbidden("Only the poster and the assigned provider can see this task's payment");
  }
  const insider = viewer.admin || viewer.id === task.userId;
  const shown = insider
    ? statement
    : { ...statement, lines: statementRounds(statement).filter((round) => round.providerId === viewer.id).flatMap((round) => round.lines) };
  const hold = await findHold(ctx, task.id);
  return {
    paid: task.paymentCapturedAt !== null,
    status: escrowStatus(hold?.status ?? null),
    releaseAt: hold ? hold.releaseAt.toISOString() : null,
    total: centsToDollars(task.totalCents),
    providerShare: centsToDollars(task.providerShareCents),
    tips: centsToDollars(statementTotals(shown).tipsCents),
    disputeReason: hold?.disputeReason ?? null,
    statement: statementAnswer(shown),
  };
}

/**
 * The provider's money, task by task, from each task's statement (providerEarning): the tasks they
 * are assigned to and any other whose money reached their balance.
 */
export async function earnings(ctx: AppContext, providerId: string): Promise<Earnings> {
  const account = ACCOUNTS.providerBalance(providerId);
  const rows = await ctx.db
    .select({ taskId: tasks.id, title: tasks.title, completedAt: tasks.completedAt })
    .from(tasks)
    .where(
      or(
        and(eq(tasks.providerId, providerId), sql`exists (select 1 from ledger_transactions lt where lt.task_id = ${tasks.id} and lt.kind = 'capture')`),
        sql`exists (select 1 from ledger_transactions lt join ledger_entries e on e.transaction_id = lt.id where lt.task_id = ${tasks.id} and e.account = ${account})`,
      ),
    )
    .orderBy(desc(tasks.createdAt))
    .limit(200);
  const statements = await loadTaskStatements(ctx.db, rows.map((r) => r.taskId));
  let held = 0;
  const list = rows.flatMap((r) => {
    const statement = statements.get(r.taskId);
    const earning = statement ? providerEarning(statement, providerId) : null;
    if (!earning) return [];
    // "Held in escrow": completed work waiting for release, and work under a reported problem.
    if (earning.status === "held" || earning.status === "under_review") held += earning.earnedCents;
    return [
      {
        taskId: r.taskId,
        title: r.title,
        status: earning.status,
        earned: centsToDollars(earning.earnedCents),
        moved: earning.moved,
        tips: centsToDollars(earning.tipsCents),
        refundedToPoster: centsToDollars(earning.refundedToPosterCents),
        recovered: centsToDollars(earning.recoveredCents),
        releaseAt: earning.releaseAt,
        movedAt: earning.movedAt,
        refundedAt: earning.refundedAt,
        completedAt: r.completedAt ? r.completedAt.toISOString() : null,
      },
    ];
  });
  const [paid] = await ctx.db
    .select({ total: sql<string | null>`sum(${payouts.amountCents})` })
    .from(payouts)
    .where(eq(payouts.providerId, providerId));
  const profile = await findProviderProfile(ctx, providerId);
  return {
    held: centsToDollars(held),
    available: centsToDollars(await accountBalance(ctx, account)),
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
