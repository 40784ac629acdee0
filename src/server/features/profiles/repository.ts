import { LATE_AFTER_MINUTES } from "../../../shared/calendar.js";
import { sql } from "drizzle-orm";
import { displayName } from "../../../shared/names.js";
import { PROFILE_REVIEWS_LIMIT, type ProfileReview, type UserProfile } from "../../../shared/profiles.js";
import { queryRows, type Db } from "../../db/client.js";
import { publicPhotoSql } from "../../db/public-photo.js";
import { averageRatingSql, toRating } from "../../db/ratings.js";
import { notFound } from "../../http-errors.js";

// A person's public profile (docs/product.md, "People you can see"): two statements whatever the
// number of reviews, one for the person with their counts and rating (kept on their users row,
// decision 037), one for their newest revealed reviews with each reviewer's name. Rows become the
// answer here, field by field.

interface PersonRow {
  id: string;
  first_name: string;
  last_name: string;
  created_at: string | Date;
  photo_url: string | null;
  verified: boolean;
  city: string | null;
  state: string | null;
  bio: string | null;
  service_types: string[] | null;
  completed_as_provider: number;
  completed_as_poster: number;
  withdrawn: number;
  kept_claims: number;
  no_shows: number;
  booked_started: number;
  late_starts: number;
  rating_average: string | null;
  rating_count: number;
  checked_at: string | Date | null;
}

interface ReviewRow {
  id: string;
  rating: number;
  comment: string | null;
  reviewer_id: string;
  reviewer_first: string;
  reviewer_last: string;
  created_at: string | Date;
  by_poster: boolean;
}

export async function getUserProfile(db: Db, userId: string): Promise<UserProfile> {
  // Both statements only read: run them side by side.
  const [people, reviews] = await Promise.all([
    queryRows<PersonRow>(
      db,
      sql`select u.id, u.first_name, u.last_name, u.created_at,
            ${publicPhotoSql(sql`u.id`, sql`u.profile_image_url`)} as photo_url,
            coalesce(pp.verification_status = 'approved', false) as verified,
            pp.city, pp.state, pp.bio, pp.service_types,
            (select count(*)::int from tasks ct where ct.provider_id = u.id and ct.status = 'completed') as completed_as_provider,
            (select count(*)::int from tasks ct where ct.user_id = u.id and ct.status = 'completed') as completed_as_poster,
            (select count(*)::int from task_withdrawals tw where tw.provider_id = u.id) as withdrawn,
            -- Booked tasks that came to their time: started, or reported as a no-show (decision 074).
            (select count(*)::int from task_no_shows ns where ns.provider_id = u.id) as no_shows,
            (select count(*)::int from tasks ct where ct.provider_id = u.id and ct.scheduled_date is not null and ct.started_at is not null) as booked_started,
            (select count(*)::int from tasks ct where ct.provider_id = u.id and ct.scheduled_date is not null
               and ct.started_at > ct.scheduled_date + make_interval(mins => ${LATE_AFTER_MINUTES}::int)) as late_starts,
            (select count(*)::int from tasks ct where ct.provider_id = u.id) as kept_claims,
            ${averageRatingSql(sql`u.rating_sum`, sql`u.rating_count`)} as rating_average, u.rating_count,
            -- The latest background check, when it is clear (docs/decisions/064-background-checks.md).
            (select case when bc.result = 'clear' then bc.completed_at end from background_checks bc
              where bc.user_id = u.id order by bc.created_at desc, bc.id desc limit 1) as checked_at
          from users u
          left join provider_profiles pp on pp.user_id = u.id
          where u.id = ${userId}::uuid and u.deleted_at is null and u.suspended_at is null`,
    ),
    queryRows<ReviewRow>(
      db,
      sql`select r.id, r.rating, r.comment, r.reviewer_id, ru.first_name as reviewer_first, ru.last_name as reviewer_last,
            r.created_at, (r.reviewer_id = t.user_id) as by_poster
          from reviews r
          join tasks t on t.id = r.task_id
          join users ru on ru.id = r.reviewer_id
          where r.reviewed_id = ${userId}::uuid and r.revealed_at is not null and r.hidden_at is null
          order by r.created_at desc, r.id desc
          limit ${PROFILE_REVIEWS_LIMIT}`,
    ),
  ]);
  const person = people[0];
  if (!person) throw notFound("This profile does not exist");
  const verified = person.verified;
  return {
    id: person.id,
    displayName: displayName({ firstName: person.first_name, lastName: person.last_name }),
    photoUrl: person.photo_url,
    // Where a provider works, from their approved application; never their street or ZIP.
    city: verified ? person.city || null : null,
    state: verified ? person.state || null : null,
    memberSince: new Date(person.created_at).toISOString(),
    verifiedProvider: verified,
    provider: verified ? { serviceTypes: person.service_types ?? [], bio: person.bio ?? "" } : null,
    backgroundCheckedAt: verified && person.checked_at ? new Date(person.checked_at).toISOString() : null,
    completedAsProvider: Number(person.completed_as_provider),
    completedAsPoster: Number(person.completed_as_poster),
    claims: {
      withdrawn: Number(person.withdrawn),
      claimed: Number(person.withdrawn) + Number(person.kept_claims),
      noShows: Number(person.no_shows),
      lateStarts: Number(person.late_starts),
      bookedStarts: Number(person.booked_started) + Number(person.no_shows),
    },
    rating: {
      average: toRating(person.rating_average),
      count: Number(person.rating_count),
    },
    reviews: reviews.map(toProfileReview),
  };
}

function toProfileReview(row: ReviewRow): ProfileReview {
  return {
    id: row.id,
    rating: Number(row.rating),
    comment: row.comment,
    reviewerId: row.reviewer_id,
    reviewerDisplayName: displayName({ firstName: row.reviewer_first, lastName: row.reviewer_last }),
    date: new Date(row.created_at).toISOString(),
    givenAs: row.by_poster ? "poster" : "provider",
  };
}
