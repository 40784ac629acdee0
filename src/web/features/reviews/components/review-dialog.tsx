import { useId, useState, type FormEvent } from "react";
import { REVIEW_COMMENT_MAX_LENGTH } from "@shared/constants";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/api";
import { useCreateReview } from "../api/create-review";
import { StarRatingInput } from "./star-rating";

export interface ReviewDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  taskId: string;
  reviewedId: string;
  /** Spec §2: 'Rate Customer' when the provider reviews, 'Rate Provider' when the customer does. */
  title: "Rate Customer" | "Rate Provider";
}

export function ReviewDialog({ open, onOpenChange, taskId, reviewedId, title }: ReviewDialogProps) {
  const [rating, setRating] = useState(0);
  const [comment, setComment] = useState("");
  const create = useCreateReview();
  const ratingLabelId = useId();
  const commentId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (rating === 0) {
      toast({ title: "Rating Required", description: "Please select a rating", variant: "destructive" });
      return;
    }
    create.mutate(
      { taskId, reviewedId, rating, comment: comment.trim() || null },
      {
        onSuccess: () => {
          toast({ title: "Review submitted successfully!" });
          setRating(0);
          setComment("");
          onOpenChange(false);
        },
        onError: (err) => toast({ title: "Error", description: errorMessage(err, "Failed to submit review"), variant: "destructive" }),
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>How did it go? Your review stays hidden until you both have reviewed, or for 14 days.</DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} className="space-y-4">
          <div className="space-y-2">
            <p id={ratingLabelId} className="text-sm font-medium">
              Rating <span className="text-destructive" aria-hidden="true">*</span>
            </p>
            <StarRatingInput value={rating} onChange={setRating} labelledBy={ratingLabelId} />
          </div>
          <div className="space-y-2">
            <Label htmlFor={commentId}>Comment (optional)</Label>
            <Textarea
              id={commentId}
              value={comment}
              maxLength={REVIEW_COMMENT_MAX_LENGTH}
              onChange={(e) => setComment(e.target.value)}
              rows={4}
            />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
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
