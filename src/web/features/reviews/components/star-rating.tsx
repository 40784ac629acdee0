import { Star } from "lucide-react";
import { RATING_MAX } from "@shared/constants";
import { cn } from "@/lib/cn";

export const STARS = Array.from({ length: RATING_MAX }, (_, i) => i + 1);

/** A read-only rating, named for screen readers. */
export function StarRatingDisplay({ rating }: { rating: number }) {
  return (
    <span role="img" aria-label={`Rated ${rating} out of ${RATING_MAX}`} className="inline-flex">
      {STARS.map((star) => (
        <Star key={star} aria-hidden="true" className={cn("size-4", star <= rating ? "fill-yellow-400 text-yellow-600" : "text-muted-foreground")} />
      ))}
    </span>
  );
}
