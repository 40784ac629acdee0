import { sql, type SQL } from "drizzle-orm";
import { queryRows, type Db } from "../../src/server/db/client.js";
import { idList } from "./load.js";

// What must hold in the database whatever failed, as SQL that returns the offending rows
// (docs/decisions/005-task-lifecycle-table.md and 008-payments-and-ledger.md). The fault tests run
// these after an outage, a kill or a race; an empty result for every check is the pass.

interface Check {
  name: string;
  query: SQL;
}

/** Legal status changes of the lifecycle table; "pay" keeps the status and so logs nothing. */
const LEGAL_MOVES = sql`(values ('open','claimed'), ('claimed','in_progress'), ('in_progress','completed'),
  ('open','cancelled'), ('claimed','cancelled'), ('claimed','payment_expired'), ('payment_expired','open')) as legal(f, t)`;

const ESCROW = sql`(select substring(account from 13)::uuid as task_id, sum(amount_cents) as held
  from ledger_entries where account like 'escrow:task:%' group by account)`;

const CHECKS: Check[] = [
  // Ledger (decision 008).
  {
    name: "every ledger transaction sums to zero",
    query: sql`select transaction_id, sum(amount_cents) as sum from ledger_entries group by transaction_id having sum(amount_cents) <> 0`,
  },
  {
    name: "every ledger transaction has at least two entries",
    query: sql`select t.id, t.kind from ledger_transactions t left join ledger_entries e on e.transaction_id = t.id
      group by t.id, t.kind having count(e.id) < 2`,
  },
  { name: "all accounts together sum to zero", query: sql`select sum(amount_cents) as total from ledger_entries having sum(amount_cents) <> 0` },
  { name: "no escrow is negative", query: sql`select task_id, held from ${ESCROW} e where held < 0` },
  {
    name: "no provider balance is negative",
    query: sql`select account, sum(amount_cents) from ledger_entries where account like 'provider:%:balance' group by account having sum(amount_cents) < 0`,
  },
  {
    name: "escrow holds a paid, unsettled task's total and nothing otherwise",
    query: sql`select t.id, t.status, h.status as hold, t.total_cents, coalesce(e.held, 0) as held
      from tasks t left join escrow_holds h on h.task_id = t.id left join ${ESCROW} e on e.task_id = t.id
      where coalesce(e.held, 0) <> case
        when t.payment_captured_at is not null
          and (t.status in ('claimed', 'in_progress') or (t.status = 'completed' and h.status in ('holding', 'disputed')))
        then t.total_cents else 0 end`,
  },
  {
    name: "a captured or refunded payment has exactly one capture of its amount, others none",
    query: sql`select p.id, p.status, count(e.id) as captures, sum(e.amount_cents) as amount, p.amount_cents
      from payments p
      left join ledger_transactions lt on lt.kind = 'capture' and lt.idempotency_key = p.id::text
      left join ledger_entries e on e.transaction_id = lt.id and e.account like 'escrow:task:%'
      group by p.id
      having count(e.id) <> case when p.status in ('captured', 'refunded') then 1 else 0 end
        or (p.status in ('captured', 'refunded') and sum(e.amount_cents) <> p.amount_cents)`,
  },
  {
    name: "a payment is refunded exactly when it has a refund transaction",
    query: sql`select p.id, p.status from payments p
      left join ledger_transactions lt on lt.kind = 'refund' and lt.idempotency_key = p.id::text
      where (p.status = 'refunded') <> (lt.id is not null)`,
  },
  {
    name: "one live payment per task",
    query: sql`select task_id, count(*) from payments
      where status in ('requires_payment', 'processing', 'failed', 'captured') group by task_id having count(*) > 1`,
  },
  {
    name: "a paid task has exactly one captured payment (refunded once cancelled); an unpaid one none",
    query: sql`select t.id, t.status, t.payment_captured_at,
        count(p.id) filter (where p.status = 'captured') as captured,
        count(p.id) filter (where p.status = 'refunded') as refunded
      from tasks t left join payments p on p.task_id = t.id
      group by t.id
      having case
        when t.payment_captured_at is null then count(p.id) filter (where p.status in ('captured', 'refunded')) <> 0
        when t.status = 'cancelled' then count(p.id) filter (where p.status = 'refunded') <> 1
          or count(p.id) filter (where p.status = 'captured') <> 0
        else count(p.id) filter (where p.status = 'captured') <> 1 end`,
  },
  {
    name: "no payment is left processing",
    query: sql`select id, task_id, updated_at from payments where status = 'processing'`,
  },
  {
    name: "only a completed task is released, once",
    query: sql`select lt.task_id, t.status, count(*) from ledger_transactions lt join tasks t on t.id = lt.task_id
      where lt.kind = 'release' group by lt.task_id, t.status having t.status <> 'completed' or count(*) > 1`,
  },
  {
    name: "a settled hold has its release or refund, a holding one neither",
    query: sql`select h.task_id, h.status,
        count(lt.id) filter (where lt.kind = 'release') as releases,
        count(lt.id) filter (where lt.kind = 'refund') as refunds
      from escrow_holds h left join ledger_transactions lt on lt.task_id = h.task_id
      group by h.task_id, h.status
      having (h.status = 'released' and count(lt.id) filter (where lt.kind = 'release') <> 1)
        or (h.status = 'refunded' and count(lt.id) filter (where lt.kind = 'refund') <> 1)
        or (h.status in ('holding', 'disputed') and count(lt.id) filter (where lt.kind in ('release', 'refund')) <> 0)`,
  },
  // Tasks (decision 005): the columns each status implies, so no task is half-changed.
  {
    name: "an open task has no provider, deadline or payment",
    query: sql`select id from tasks where status = 'open'
      and (provider_id is not null or payment_deadline is not null or payment_captured_at is not null)`,
  },
  {
    name: "a claimed task has its provider, claim time and payment deadline",
    query: sql`select id from tasks where status = 'claimed' and (provider_id is null or claimed_at is null or payment_deadline is null)`,
  },
  {
    name: "a task in progress is paid and started by its provider",
    query: sql`select id from tasks where status = 'in_progress' and (provider_id is null or payment_captured_at is null or started_at is null)`,
  },
  {
    name: "a completed task is paid, has its provider, completion time and escrow hold",
    query: sql`select t.id from tasks t left join escrow_holds h on h.task_id = t.id where t.status = 'completed'
      and (t.provider_id is null or t.payment_captured_at is null or t.completed_at is null or h.task_id is null)`,
  },
  {
    name: "an expired claim released its provider and was never paid",
    query: sql`select id from tasks where status = 'payment_expired'
      and (provider_id is not null or payment_deadline is not null or payment_captured_at is not null)`,
  },
  { name: "a cancelled task has its cancel time", query: sql`select id from tasks where status = 'cancelled' and cancelled_at is null` },
  { name: "nobody works on their own task", query: sql`select id from tasks where provider_id = user_id` },
  {
    name: "a task's total is budget + surcharge + fee",
    query: sql`select id from tasks where total_cents <> budget_cents + urgent_fee_cents + service_fee_cents`,
  },
  // What the transition log (installTransitionLog) saw: legal moves only, and one notice per event.
  {
    name: "every status change is a move of the lifecycle table",
    query: sql`select l.task_id, l.from_status, l.to_status from fault_task_transitions l
      where not exists (select 1 from ${LEGAL_MOVES} where legal.f = l.from_status and legal.t = l.to_status)`,
  },
  {
    name: "the poster got one 'task claimed' notice per claim",
    query: sql`select t.id, c.claims, n.notices from tasks t
      cross join lateral (select count(*) as claims from fault_task_transitions l
        where l.task_id = t.id and l.from_status = 'open' and l.to_status = 'claimed') c
      cross join lateral (select count(*) as notices from notifications n where n.task_id = t.id and n.kind = 'task_claimed') n
      where c.claims <> n.notices`,
  },
  {
    name: "the provider got one 'payment received' notice per captured payment",
    query: sql`select t.id, c.captures, n.notices from tasks t
      cross join lateral (select count(*) as captures from payments p where p.task_id = t.id and p.status in ('captured', 'refunded')) c
      cross join lateral (select count(*) as notices from notifications n
        where n.task_id = t.id and n.kind = 'payment_received' and n.title = 'Payment received') n
      where c.captures <> n.notices`,
  },
  {
    name: "the provider got one 'payment released' notice per release",
    query: sql`select t.id, r.releases, n.notices from tasks t
      cross join lateral (select count(*) as releases from ledger_transactions lt where lt.task_id = t.id and lt.kind = 'release') r
      cross join lateral (select count(*) as notices from notifications n where n.task_id = t.id and n.kind = 'payout_released') n
      where r.releases <> n.notices`,
  },
];

/**
 * Records every status change of a task, with the database's own clock: the evidence that a timer
 * fired once and that no other move happened. Test-only; it lives in the throwaway database.
 */
export async function installTransitionLog(db: Db): Promise<void> {
  await db.execute(sql`create table if not exists fault_task_transitions (
    id bigserial primary key, task_id uuid not null, from_status text not null, to_status text not null,
    at timestamptz not null default clock_timestamp())`);
  await db.execute(sql`create or replace function fault_log_task_transition() returns trigger language plpgsql as $$
    begin
      insert into fault_task_transitions (task_id, from_status, to_status) values (new.id, old.status::text, new.status::text);
      return null;
    end $$`);
  await db.execute(sql`drop trigger if exists fault_log_task_transition on tasks`);
  await db.execute(sql`create trigger fault_log_task_transition after update of status on tasks for each row
    when (old.status is distinct from new.status) execute function fault_log_task_transition()`);
}

/** Rows per task id of a query that selects `task_id`, with 0 for tasks it does not return. */
async function perTask(db: Db, taskIds: string[], rows: SQL): Promise<Map<string, number>> {
  const counts = new Map(taskIds.map((id) => [id, 0]));
  const found = await queryRows<{ task_id: string; n: number }>(
    db,
    sql`select task_id::text, count(*)::int as n from (${rows}) r where task_id = any(${idList(taskIds)}::uuid[]) group by task_id`,
  );
  for (const row of found) counts.set(row.task_id, Number(row.n));
  return counts;
}

/** How often each task made the move from → to (needs installTransitionLog). */
export const transitionCounts = (db: Db, from: string, to: string, taskIds: string[]) =>
  perTask(db, taskIds, sql`select task_id from fault_task_transitions where from_status = ${from} and to_status = ${to}`);

/** How many notices of a kind each task produced. */
export const noticeCounts = (db: Db, kind: string, taskIds: string[]) =>
  perTask(db, taskIds, sql`select task_id from notifications where kind = ${kind}`);

/** How many ledger transactions of a kind each task has. */
export const ledgerCounts = (db: Db, kind: string, taskIds: string[]) =>
  perTask(db, taskIds, sql`select task_id from ledger_transactions where kind = ${kind}`);

export interface InvariantReport {
  checked: number;
  /** "name: first offending rows" for each failed check; empty when everything holds. */
  violations: string[];
}

export async function checkInvariants(db: Db): Promise<InvariantReport> {
  const violations: string[] = [];
  for (const check of CHECKS) {
    const rows = await queryRows<Record<string, unknown>>(db, sql`select * from (${check.query}) as offending limit 5`);
    if (rows.length > 0) violations.push(`${check.name}: ${JSON.stringify(rows)}`);
  }
  return { checked: CHECKS.length, violations };
}
