import { z } from "zod";

// Public profiles (docs/product.md, "People you can see"; docs/decisions/023-public-profiles-and-display-names.md).
// This schema is the filter: the route serialises through it, so a field not named here (e-mail,
// phone, street address, ZIP, the full last name) cannot leave the server.

/** The newest revealed reviews a profile lists; `rating.count` says how many there are in all. */
export const PROFILE_REVIEWS_LIMIT = 20;

export const REVIEW_GIVEN_AS = ["poster", "provider"] as const;

export const profileReviewSchema = z.object({
  id: z.uuid(),
  rating: z.number().int(),
  comment: z.string().nullable(),
  reviewerId: z.uuid(),
  reviewerDisplayName: z.string(),
  date: z.string(),
  /** The reviewer's side of the task: "poster" when a customer reviewed this person's work as provider. */
  givenAs: z.enum(REVIEW_GIVEN_AS),
});
export type ProfileReview = z.infer<typeof profileReviewSchema>;

export const userProfileSchema = z.object({
  id: z.uuid(),
  displayName: z.string(),
  photoUrl: z.string().nullable(),
  /** A verified provider's city and state from their application; null for everyone else (we hold no city for them). */
  city: z.string().nullable(),
  state: z.string().nullable(),
  memberSince: z.string(),
  verifiedProvider: z.boolean(),
  /** Only for verified providers: an applicant's bio is not public until an admin approves it. */
  provider: z.object({ serviceTypes: z.array(z.string()), bio: z.string() }).nullable(),
  /** When a verified provider's latest background check came back clear; null otherwise (decision 064). */
  backgroundCheckedAt: z.string().nullable(),
  completedAsProvider: z.number().int(),
  completedAsPoster: z.number().int(),
  /** Revealed reviews only (docs/product.md, Reviews): the average to one decimal, null without any. */
  rating: z.object({ average: z.number().nullable(), count: z.number().int() }),
  /**
   * Claims given back before starting, of all the claims they kept or gave back (declined and
   * expired claims were not their doing): docs/decisions/058-withdrawing-and-editing.md. Of their
   * booked tasks that came to their time (started, or reported as a no-show), the no-shows and the
   * starts more than LATE_AFTER_MINUTES late (docs/decisions/074-time-and-turning-up.md).
   */
  claims: z.object({
    withdrawn: z.number().int(),
    claimed: z.number().int(),
    noShows: z.number().int(),
    lateStarts: z.number().int(),
    bookedStarts: z.number().int(),
  }),
  /** The newest PROFILE_REVIEWS_LIMIT revealed reviews this person received. */
  reviews: z.array(profileReviewSchema),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

const tasksWord = (n: number) => (n === 1 ? "task" : "tasks");

/**
 * "Withdrew from 1 of 14 claimed tasks · Did not show up for 1 of 9 booked tasks · Started late on 2
 * of 9 booked tasks", each part only when it is not zero; null when none is (decisions 058, 074).
 */
export function reliabilityLine({ withdrawn, claimed, noShows, lateStarts, bookedStarts }: UserProfile["claims"]): string | null {
  const parts = [
    withdrawn > 0 ? `Withdrew from ${withdrawn} of ${claimed} claimed ${tasksWord(claimed)}` : null,
    noShows > 0 ? `Did not show up for ${noShows} of ${bookedStarts} booked ${tasksWord(bookedStarts)}` : null,
    lateStarts > 0 ? `Started late on ${lateStarts} of ${bookedStarts} booked ${tasksWord(bookedStarts)}` : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(" · ") : null;
}
