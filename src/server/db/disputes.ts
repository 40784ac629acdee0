import { getTableName, sql, type SQL } from "drizzle-orm";
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
