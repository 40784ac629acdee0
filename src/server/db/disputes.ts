import { getTableName, sql, type SQL } from "drizzle-orm";
import type { TaskSettlement } from "../../shared/tasks.js";
import { disputes } from "./schema/payments.js";
import { tasks } from "./schema/tasks.js";

// A task with an open problem report keeps its money and its people until an admin resolves the
// dispute: the rows' `no_open_dispute` guard and a suspension's sweep both ask this one predicate
// (docs/decisions/057-disputes-guarantee-late-cancellation.md, docs/decisions/059-moderation.md).

/**
 * SQL, in a query over `tasks`: true when the row's task has an open dispute (at most one: a
 * partial unique index). The task's id is written with its table's name: drizzle writes a column of
 * a one-table query bare, and inside this subquery a bare "id" would be the dispute's own.
 */
export function taskHasOpenDisputeSql(): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${disputes} d where d.task_id = ${sql.identifier(getTableName(tasks))}.${sql.identifier(tasks.id.name)} and d.status = 'open')`;
}

/**
 * SQL, in a query over `tasks`: how an admin's resolution settled the row's task, when the
 * resolution ended it (the task table's resolve_dispute: claimed or in_progress → cancelled); null
 * for any other task. Read from the resolved dispute's amounts, the same ones its `split` moved.
 */
export function taskSettlementSql(): SQL<TaskSettlement | null> {
  const taskRef = sql`${sql.identifier(getTableName(tasks))}`;
  return sql<TaskSettlement | null>`case when ${taskRef}.${sql.identifier(tasks.status.name)} = 'cancelled' then (
    select case when coalesce(d.release_cents, 0) = 0 then 'refunded' when coalesce(d.refund_cents, 0) = 0 then 'provider_paid' else 'partly_refunded' end
    from ${disputes} d where d.task_id = ${taskRef}.${sql.identifier(tasks.id.name)} and d.status = 'resolved'
    order by d.resolved_at desc limit 1) end`;
}
