import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

// A person's rating (docs/product.md#reviews): the count and the sum of their revealed reviews live on
// their users row (rating_count, rating_sum), kept by the trigger on reviews, so every card, profile
// and list reads two columns instead of aggregating reviews (docs/decisions/037-ratings-on-the-user-row.md).
// The average is made here and nowhere else: one decimal, halves away from zero (PostgreSQL's round
// of a numeric, as the answers always had), null while no review of them is revealed.

/** SQL of the average of `count` ratings that add up to `sum`: a numeric, which node-postgres reads as a string. */
export function averageRatingSql(sum: SQLWrapper, count: SQLWrapper): SQL<string | null> {
  return sql<string | null>`(case when ${count} > 0 then round(${sum}::numeric / ${count}, 1) end)`;
}

/** The average as the API answers it: a number with one decimal, or null. */
export const toRating = (average: string | null): number | null => (average === null ? null : Number(average));

/** A provider card's record: the tasks they completed as provider (docs/product.md, "People you can see"). */
export function completedTasksSql(providerId: SQL): SQL<number> {
  return sql<number>`(select count(*)::int from tasks c where c.provider_id = ${providerId} and c.status = 'completed')`;
}
