import { formatDate } from "@/lib/dates";
import { Star } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "wouter";
import { RATING_MAX } from "@shared/constants";
import type { ProfileReview } from "@shared/profiles";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { userProfilePath } from "@/lib/profile-path";

function Stars({ rating }: { rating: number }) {
  return (
    <span role="img" aria-label={`Rated ${rating} out of ${RATING_MAX}`} className="inline-flex items-center gap-0.5">
      {Array.from({ length: RATING_MAX }, (_, i) => (
        <Star
          key={i}
          aria-hidden="true"
          className={i < rating ? "size-4 fill-yellow-400 text-yellow-600" : "size-4 text-muted-foreground"}
        />
      ))}
    </span>
  );
}

/**
 * The revealed reviews a person received, newest first; `total` counts them all (docs/product.md,
 * Reviews). `report` draws a review's Report control for a signed-in reader, handed in by the page.
 */
export function ProfileReviews({ reviews, total, report }: { reviews: ProfileReview[]; total: number; report?: ((review: ProfileReview) => ReactNode) | undefined }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-xl">
          <h2>Reviews ({total})</h2>
        </CardTitle>
        {total > reviews.length ? (
          <p className="text-sm text-muted-foreground">The {reviews.length} most recent of {total} reviews.</p>
        ) : null}
      </CardHeader>
      <CardContent>
        {reviews.length === 0 ? (
          <p className="text-sm text-muted-foreground">No reviews yet.</p>
        ) : (
          <ul className="grid gap-4">
            {reviews.map((review) => (
              <li key={review.id} className="grid gap-1.5 border-b pb-4 last:border-b-0 last:pb-0">
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                  <Link href={userProfilePath(review.reviewerId)} className="font-medium [overflow-wrap:anywhere] hover:underline">
                    {review.reviewerDisplayName}
                  </Link>
                  <Stars rating={review.rating} />
                  <time dateTime={review.date} className="text-xs text-muted-foreground">
                    {formatDate(new Date(review.date), "MMM d, yyyy")}
                  </time>
                  {report ? report(review) : null}
                </div>
                <p className="text-xs text-muted-foreground">{review.givenAs === "poster" ? "From a customer" : "From a provider"}</p>
                {review.comment ? <p className="text-sm whitespace-pre-wrap [overflow-wrap:anywhere]">{review.comment}</p> : null}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
