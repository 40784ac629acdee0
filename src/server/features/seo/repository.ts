import { sql } from "drizzle-orm";
import { taskPhotoUrl } from "../../../shared/task-photos.js";
import type { Db } from "../../db/client.js";
import { queryRows } from "../../db/client.js";

// What a shared link may say about a task or a person: only what a signed-out visitor sees on the
// page (docs/product.md, "People you can see" and "Privacy of places"): a task's title, budget,
// category, city and state, never a name or a street; a person's display name. Each query names
// its columns, so nothing else can reach the HTML.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An address segment that cannot be an id is not looked up (PostgreSQL would refuse the cast). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

export interface TaskHeadData {
  id: string;
  title: string;
  budgetCents: number;
  category: string;
  /** The task's city and state, or a route's start. */
  city: string | null;
  state: string | null;
  status: string;
  /** The medium image of the task's first photo, as a path on this site; else the app's default image. */
  photoPath: string | null;
}

export async function findTaskHead(db: Db, id: string): Promise<TaskHeadData | null> {
  if (!isUuid(id)) return null;
  const rows = await queryRows<{
    id: string;
    title: string;
    budget_cents: number;
    category: string;
    city: string | null;
    state: string | null;
    status: string;
    photo_id: string | null;
  }>(
    db,
    sql`select id, title, budget_cents, category, coalesce(city, start_city) as city, coalesce(state, start_state) as state, status,
          (select tp.id from task_photos tp where tp.task_id = tasks.id order by tp.seq limit 1) as photo_id
          from tasks where id = ${id}::uuid`,
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    title: row.title,
    budgetCents: row.budget_cents,
    category: row.category,
    city: row.city,
    state: row.state,
    status: row.status,
    photoPath: row.photo_id === null ? null : taskPhotoUrl(row.photo_id, "medium"),
  };
}

export interface PersonHeadData {
  firstName: string;
  lastName: string;
}

/** The names a display name is made from; deleted accounts have no profile (decision 023). */
export async function findPersonHead(db: Db, id: string): Promise<PersonHeadData | null> {
  if (!isUuid(id)) return null;
  const rows = await queryRows<{ first_name: string; last_name: string }>(
    db,
    sql`select first_name, last_name from users where id = ${id}::uuid and deleted_at is null`,
  );
  const row = rows[0];
  return row ? { firstName: row.first_name, lastName: row.last_name } : null;
}

export interface SitemapTask {
  id: string;
  updatedAt: Date;
}

/** The newest open tasks, for the sitemap: the job board's own index (status, created_at desc) serves it. */
export async function listSitemapTasks(db: Db, limit: number): Promise<SitemapTask[]> {
  const rows = await queryRows<{ id: string; updated_at: string | Date }>(
    db,
    sql`select id, updated_at from tasks where status = 'open' order by created_at desc, id desc limit ${limit}`,
  );
  return rows.map((r) => ({ id: r.id, updatedAt: new Date(r.updated_at) }));
}
