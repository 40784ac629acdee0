import { sql } from "drizzle-orm";
import { displayName } from "../../../shared/names.js";
import type { TaskInsiderParty, TaskParty, TaskProviderCard } from "../../../shared/tasks.js";
import type { Db } from "../../db/client.js";
import { publicPhotoSql } from "../../db/public-photo.js";
import { preparedOnce } from "../../db/prepared.js";
import { averageRatingSql, completedTasksSql, toRating } from "../../db/ratings.js";
import { users } from "../../db/schema/users.js";

// The poster and the provider of a task as each viewer sees them (docs/product.md, "People you can
// see"): loaded once per answer, a display name for strangers, the full name for the task's insiders.

/** A poster or provider as loaded: the full name stays on the server unless the viewer is an insider. */
export interface PartyRow {
  id: string;
  firstName: string;
  lastName: string;
  photoUrl: string | null;
  rating: number | null;
  reviewCount: number;
  /** Tasks completed as provider: the record the poster weighs before paying. */
  completedTasks: number;
}

const partyColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  photoUrl: publicPhotoSql(sql`${users.id}`, sql`${users.profileImageUrl}`),
  // Two columns of the users row, kept by the trigger on reviews (docs/decisions/037-ratings-on-the-user-row.md).
  rating: averageRatingSql(users.ratingSum, users.ratingCount),
  reviewCount: users.ratingCount,
  // Written out in full: inside the subquery an unqualified "id" would be the task's own id.
  completedTasks: completedTasksSql(sql`"users"."id"`),
};

/**
 * A task's poster and provider (the same id twice when there is no provider): the task page and
 * every transition's answer. Built once per database and prepared once per connection by name, and
 * with exactly two values PostgreSQL settles on one generic plan after five runs and stops planning
 * it (docs/benchmarks.md, "Figures once in code comments"); with the array below it keeps planning each
 * run for its length.
 */
const partyPairStatement = (db: Db) =>
  preparedOnce(db, "task_party_pair", () =>
    db
      .select(partyColumns)
      .from(users)
      .where(sql`${users.id} in (${sql.placeholder("a")}::uuid, ${sql.placeholder("b")}::uuid)`)
      .prepare("task_party_pair"),
  );

/** The parties of many tasks at once (the dashboards' lists). */
const partiesStatement = (db: Db) =>
  preparedOnce(db, "task_parties", () =>
    db
      .select(partyColumns)
      .from(users)
      .where(sql`${users.id} = any(${sql.placeholder("ids")}::uuid[])`)
      .prepare("task_parties"),
  );

/** Poster and provider cards with their rating (revealed reviews only) and record, in one query. */
export async function loadParties(db: Db, ids: readonly string[]): Promise<Map<string, PartyRow>> {
  const unique = [...new Set(ids)];
  const [a, b] = unique;
  if (a === undefined) return new Map();
  const rows = unique.length <= 2 ? await partyPairStatement(db).execute({ a, b: b ?? a }) : await partiesStatement(db).execute({ ids: unique });
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        firstName: r.firstName,
        lastName: r.lastName,
        photoUrl: r.photoUrl,
        rating: toRating(r.rating),
        reviewCount: Number(r.reviewCount),
        completedTasks: Number(r.completedTasks),
      },
    ]),
  );
}

export function partyRow(parties: Map<string, PartyRow>, id: string): PartyRow {
  const found = parties.get(id);
  // users rows are never deleted while a task references them (foreign key), so this is a bug.
  if (!found) throw new Error(`user ${id} of a task was not loaded`);
  return found;
}

/** What strangers see of a party: display name only (docs/product.md, "People you can see"). */
export function party(parties: Map<string, PartyRow>, id: string): TaskParty {
  const p = partyRow(parties, id);
  return { id: p.id, displayName: displayName(p), photoUrl: p.photoUrl, rating: p.rating, reviewCount: p.reviewCount };
}

/** What the task's insiders (poster, assigned provider, admins) see: the full name as well. */
export function insiderParty(parties: Map<string, PartyRow>, id: string): TaskInsiderParty {
  return { ...party(parties, id), ...fullName(parties, id) };
}

export function fullName(parties: Map<string, PartyRow>, id: string): { firstName: string; lastName: string } {
  const p = partyRow(parties, id);
  return { firstName: p.firstName, lastName: p.lastName };
}

/**
 * The assigned provider as anyone sees them: display name, photo, record (docs/product.md, "The
 * poster sees who claimed"); insiders get the full name as well.
 */
export function providerCard(parties: Map<string, PartyRow>, id: string): TaskProviderCard {
  const p = partyRow(parties, id);
  return {
    id: p.id,
    displayName: displayName(p),
    profilePhotoUrl: p.photoUrl,
    rating: p.rating,
    reviewCount: p.reviewCount,
    completedTasks: p.completedTasks,
  };
}
