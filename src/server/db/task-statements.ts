import { sql } from "drizzle-orm";
import type { TaskStatus } from "../../shared/constants.js";
import type { EscrowStatus, LedgerKind } from "../../shared/money-lifecycle.js";
import { taskStatement, type LedgerFacts, type TaskStatement } from "../../shared/task-statement.js";
import { queryRows, type Db } from "./client.js";

// The one reader of tasks' statements (docs/decisions/073-one-account-of-each-tasks-money.md): each
// task's stored line items and records, and its ledger transactions in the order they were written,
// for one task or a batch in two queries, made into statements by src/shared/task-statement.ts. The
// payments feature's pages, receipts and exports and the notices of the task table's rows all read
// it, so none sums the ledger again (a read model several features share).

interface TaskFactsRow {
  id: string;
  status: TaskStatus;
  provider_id: string | null;
  budget_cents: number;
  urgent_fee_cents: number;
  service_fee_cents: number;
  total_cents: number;
  provider_share_cents: number;
  platform_commission_cents: number;
  hold_status: EscrowStatus | null;
  release_at: Date | string | null;
  dispute_open: boolean;
}

interface TransactionRow {
  id: string;
  task_id: string;
  kind: LedgerKind;
  memo: string | null;
  created_at: Date | string;
  entries: { account: string; amountCents: number | string }[];
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** The statements of `taskIds` (a task that does not exist has none), each read in `db`, the pool or a transaction. */
export async function loadTaskStatements(db: Db, taskIds: readonly string[]): Promise<Map<string, TaskStatement>> {
  const ids = [...new Set(taskIds)];
  if (ids.length === 0) return new Map();
  const list = sql`(${sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  )})`;
  const facts = await queryRows<TaskFactsRow>(
    db,
    sql`select t.id, t.status, t.provider_id, t.budget_cents, t.urgent_fee_cents, t.service_fee_cents, t.total_cents,
          t.provider_share_cents, t.platform_commission_cents, h.status as hold_status, h.release_at,
          exists (select 1 from disputes d where d.task_id = t.id and d.status = 'open') as dispute_open
        from tasks t left join escrow_holds h on h.task_id = t.id
        where t.id in ${list}`,
  );
  // Entry ids follow the order the ledger wrote them, also inside one database transaction (a late
  // fee before its cancel's refund), where created_at is the same.
  const transactions = await queryRows<TransactionRow>(
    db,
    sql`select lt.id, lt.task_id, lt.kind, lt.memo, lt.created_at,
          json_agg(json_build_object('account', e.account, 'amountCents', e.amount_cents) order by e.id) as entries
        from ledger_transactions lt join ledger_entries e on e.transaction_id = lt.id
        where lt.task_id in ${list}
        group by lt.id
        order by lt.task_id, lt.created_at, min(e.id)`,
  );
  const byTask = new Map<string, LedgerFacts[]>();
  for (const t of transactions) {
    const facts: LedgerFacts = {
      id: t.id,
      kind: t.kind,
      at: iso(t.created_at),
      memo: t.memo,
      entries: t.entries.map((e) => ({ account: e.account, amountCents: Number(e.amountCents) })),
    };
    byTask.set(t.task_id, [...(byTask.get(t.task_id) ?? []), facts]);
  }
  return new Map(
    facts.map((f) => [
      f.id,
      taskStatement(
        f.id,
        {
          budgetCents: f.budget_cents,
          urgentFeeCents: f.urgent_fee_cents,
          serviceFeeCents: f.service_fee_cents,
          totalCents: f.total_cents,
          providerShareCents: f.provider_share_cents,
          platformCommissionCents: f.platform_commission_cents,
        },
        byTask.get(f.id) ?? [],
        {
          status: f.status,
          providerId: f.provider_id,
          hold: f.hold_status && f.release_at ? { status: f.hold_status, releaseAt: iso(f.release_at) } : null,
          disputeOpen: f.dispute_open,
        },
      ),
    ]),
  );
}

/** One task's statement; throws when the task does not exist (its caller found it first). */
export async function loadTaskStatement(db: Db, taskId: string): Promise<TaskStatement> {
  const statement = (await loadTaskStatements(db, [taskId])).get(taskId);
  if (!statement) throw new Error(`Task ${taskId} has no statement: it does not exist`);
  return statement;
}
