import { Star } from "lucide-react";

// Its own module: the task page shows it under the poster's name, and importing it from the job
// card brought the card, its photo and the board's filter rules into the task page's first load.

/** A poster's average rating and review count, or "No ratings yet". */
export function PosterRating({ rating, reviewCount }: { rating: number | null; reviewCount: number }) {
  if (rating === null || reviewCount === 0) return <span>No ratings yet</span>;
  return (
    <span className="inline-flex items-center gap-1">
      <Star className="size-3.5 fill-current text-warning" aria-hidden="true" />
      {rating.toFixed(1)} ({reviewCount} {reviewCount === 1 ? "review" : "reviews"})
    </span>
  );
}
