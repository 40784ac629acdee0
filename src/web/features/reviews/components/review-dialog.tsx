import { zodResolver } from "@hookform/resolvers/zod";
import { useId } from "react";
import { Controller } from "react-hook-form";
import { z } from "zod";
import { RATING_MIN } from "@shared/constants";
import { createReviewBodySchema } from "@shared/reviews";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import type { DeferredOverlay } from "@/components/ui/use-deferred-overlay";
import { FormField } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { maxLengthOf } from "@/lib/form";
import { useSchemaForm } from "@/lib/schema-form";
import { useCreateReview } from "../api/create-review";
import { StarRatingInput } from "./star-rating-input";

const fields = createReviewBodySchema.shape;

// The server's rating and comment rules; no star chosen yet (0) asks for one in plain words.
const reviewFormSchema = z.object({
  rating: z.number().min(RATING_MIN, { error: "Please select a rating" }).pipe(fields.rating),
  comment: fields.comment,
});
type ReviewFormInput = z.input<typeof reviewFormSchema>;
type ReviewFormValues = z.output<typeof reviewFormSchema>;

const EMPTY: ReviewFormInput = { rating: 0, comment: "" };

export interface ReviewDialogProps {
  /** Its Rate button's state: this dialog loads at the button's first press (task-reviews.tsx). */
  overlay: DeferredOverlay;
  taskId: string;
  reviewedId: string;
  /** 'Rate Customer' when the provider reviews, 'Rate Provider' when the customer does (docs/product.md#reviews). */
  title: "Rate Customer" | "Rate Provider";
}

export function ReviewDialog({ overlay, taskId, reviewedId, title }: ReviewDialogProps) {
  const form = useSchemaForm<ReviewFormInput, ReviewFormValues>({ resolver: zodResolver(reviewFormSchema), defaultValues: EMPTY });
  const create = useCreateReview();
  const ratingLabelId = useId();
  const ratingErrorId = useId();
  const { errors } = form.formState;

  // mutateAsync, not mutate's callbacks: the live task update (docs/decisions/025-live-task-status.md)
  // may refetch the reviews and unmount this dialog before the answer, and mutate's callbacks do not
  // run after an unmount, which lost the success toast.
  const onSubmit = form.handleSubmit(async ({ rating, comment }) => {
    try {
      await create.mutateAsync({ taskId, reviewedId, rating, comment });
    } catch (error) {
      const rest = form.showServerErrors(error, "Failed to submit review. Please try again.");
      if (rest) toast({ title: "Error", description: rest, variant: "destructive" });
      return;
    }
    toast({ title: "Review submitted successfully!" });
    form.reset(EMPTY);
    overlay.setOpen(false);
  });

  return (
    <Dialog open={overlay.open} onOpenChange={overlay.setOpen}>
      <DialogContent onCloseAutoFocus={overlay.returnFocus}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>How did it go? Your review stays hidden until you both have reviewed, or for 14 days.</DialogDescription>
        </DialogHeader>
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-4">
          <div className="space-y-2">
            <p id={ratingLabelId} className="text-sm font-medium">
              Rating <span className="text-destructive" aria-hidden="true">*</span>
            </p>
            <Controller
              control={form.control}
              name="rating"
              render={({ field }) => (
                <StarRatingInput
                  value={field.value}
                  onChange={field.onChange}
                  labelledBy={ratingLabelId}
                  errorId={errors.rating ? ratingErrorId : undefined}
                />
              )}
            />
            {errors.rating ? (
              <p id={ratingErrorId} className="text-sm font-medium text-destructive">
                {errors.rating.message}
              </p>
            ) : null}
          </div>
          <FormField label="Comment (optional)" error={errors.comment?.message}>
            <Textarea rows={4} maxLength={maxLengthOf(fields.comment)} {...form.register("comment")} />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => overlay.setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? "Submitting..." : "Submit Review"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
