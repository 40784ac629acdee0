import type { ReactNode } from "react";
import { formatDate } from "@/lib/dates";
import { Link } from "wouter";
import type { TaskDetail } from "@shared/tasks";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { DeferredDialog, deferredPart } from "@/components/ui/deferred-dialog";
import { useUser } from "@/lib/current-user";
import { userProfilePath } from "@/lib/profile-path";
import { useTaskReviews } from "../api/get-task-reviews";
import { StarRatingDisplay } from "./star-rating";

// The review form (react-hook-form, zod, the Radix dialog and radio group) is its own chunk, fetched
// when the pointer or focus reaches the Rate button and shown at its press (issue 17,
// docs/decisions/041-forms-loaded-on-first-use.md).
const reviewDialog = deferredPart(() => import("./review-dialog"), (m) => m.ReviewDialog);

/**
 * Rate button and dialog on completed tasks, and the reviews both sides may see. `report` draws the
 * control that reports the other person's review (docs/product.md, Moderation), handed in by the page.
 */
export function TaskReviews({ task, report }: { task: TaskDetail; report?: (review: { id: string; reviewerName: string }) => ReactNode }) {
  const { user } = useUser();
  const isPoster = user !== null && user.id === task.userId;
  const isProvider = user !== null && task.providerId !== null && user.id === task.providerId;
  const shown = task.status === "completed" && (isPoster || isProvider);
  const reviews = useTaskReviews(task.id, shown);

  if (!shown || !user) return null;
  const reviewedId = isPoster ? task.providerId : task.userId;
  const title = isPoster ? "Rate Provider" : "Rate Customer";
  const data = reviews.data;

  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between gap-2 space-y-0">
        <CardTitle asChild className="text-lg">
          <h2>Reviews</h2>
        </CardTitle>
        {data && !data.reviewedByMe && reviewedId && (
          <DeferredDialog part={reviewDialog} trigger={<Button>{title}</Button>}>
            {(overlay) => <reviewDialog.Component overlay={overlay} taskId={task.id} reviewedId={reviewedId} title={title} />}
          </DeferredDialog>
        )}
      </CardHeader>
      <CardContent className="space-y-4">
        {data?.reviews.length === 0 && <p className="text-sm text-muted-foreground">No reviews yet.</p>}
        {data?.reviews.map((review) => (
          <div key={review.id} className="space-y-1 border-b pb-3 last:border-b-0 last:pb-0">
            <div className="flex flex-wrap items-center gap-2">
              {review.reviewerId === user.id ? (
                <span className="font-medium">Your review</span>
              ) : (
                <Link href={userProfilePath(review.reviewerId)} className="font-medium [overflow-wrap:anywhere] hover:underline">
                  {review.reviewerName}
                </Link>
              )}
              <StarRatingDisplay rating={review.rating} />
              <time dateTime={review.createdAt} className="text-xs text-muted-foreground">
                {formatDate(new Date(review.createdAt), "MMM d, yyyy")}
              </time>
              {review.reviewerId !== user.id && report ? report(review) : null}
            </div>
            {review.comment && <p className="whitespace-pre-wrap text-sm [overflow-wrap:anywhere]">{review.comment}</p>}
          </div>
        ))}
        {data?.revealsAt && (
          <p className="text-sm text-muted-foreground">
            The other review stays hidden until you both have reviewed, or until {formatDate(new Date(data.revealsAt), "MMM d, yyyy")}.
          </p>
        )}
      </CardContent>
    </Card>
  );
}
