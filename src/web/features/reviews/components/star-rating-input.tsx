import * as RadioGroupPrimitive from "@radix-ui/react-radio-group";
import { Star } from "lucide-react";
import { cn } from "@/lib/cn";
import { STARS } from "./star-rating";

// Apart from the read-only stars (star-rating.tsx): only the review form, which loads on first use,
// needs the Radix radio group (issue 17, docs/decisions/041-forms-loaded-on-first-use.md).

/** 1 to 5 stars as a radio group: arrow keys move, each star is named "N stars". */
export function StarRatingInput({
  value,
  onChange,
  labelledBy,
  errorId,
}: {
  value: number;
  onChange: (rating: number) => void;
  labelledBy: string;
  /** The id of the validation message shown for the rating, when there is one. */
  errorId?: string;
}) {
  return (
    <RadioGroupPrimitive.Root
      aria-labelledby={labelledBy}
      aria-describedby={errorId}
      aria-invalid={errorId ? true : undefined}
      orientation="horizontal"
      value={value > 0 ? String(value) : ""}
      onValueChange={(v) => onChange(Number(v))}
      className="flex gap-1"
    >
      {STARS.map((star) => (
        <RadioGroupPrimitive.Item
          key={star}
          value={String(star)}
          aria-label={star === 1 ? "1 star" : `${star} stars`}
          className="rounded-sm p-1 focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background"
        >
          <Star
            aria-hidden="true"
            className={cn("size-7", star <= value ? "fill-yellow-400 text-yellow-600" : "text-muted-foreground")}
          />
        </RadioGroupPrimitive.Item>
      ))}
    </RadioGroupPrimitive.Root>
  );
}
