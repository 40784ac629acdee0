import { sql, type SQL } from "drizzle-orm";

// The photo strangers see of a person (docs/decisions/023-public-profiles-and-display-names.md):
// a verified provider's approved profile photo first (an admin compared it with their ID, and
// GET /objects/{id} serves it publicly), otherwise the account's own users.profile_image_url.
// One definition for every feature that shows a person to others (task cards, profiles).

/** SQL of the public photo of the user whose id is `userId` (a column or a value). */
export function publicPhotoSql(userId: SQL, profileImageUrl: SQL): SQL<string | null> {
  return sql<string | null>`coalesce((select pp.profile_photo_path from provider_profiles pp
    where pp.user_id = ${userId} and pp.verification_status = 'approved'), ${profileImageUrl})`;
}
