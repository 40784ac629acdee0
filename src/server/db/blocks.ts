import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { userBlocks } from "./schema/moderation.js";

// A block works both ways (docs/product.md, Moderation): when either person blocked the other, they
// cannot chat, claim each other's tasks or see each other on the board. Every check asks this one
// predicate, whichever feature makes it (docs/decisions/059-moderation.md).

/** SQL: true when `a` blocked `b` or `b` blocked `a`. */
export function blockedBetweenSql(a: SQLWrapper | string, b: SQLWrapper | string): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${userBlocks} ub where (ub.blocker_id = ${a} and ub.blocked_id = ${b}) or (ub.blocker_id = ${b} and ub.blocked_id = ${a}))`;
}
