import { Clock, MapPin, Wallet } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "wouter";
import { dollarsToCents, youllEarnText } from "@shared/money";
import type { BoardTask, TaskPublic } from "@shared/tasks";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton, SkeletonText } from "@/components/ui/skeleton";
import { userProfilePath } from "@/lib/profile-path";
import { PosterRating } from "./poster-rating";
import { TaskActionButton } from "./task-action-button";
import type { TaskActionButton as ActionButton } from "./task-actions";
import { TaskCategoryBadge, TaskUrgencyBadge } from "./task-badges";
import { milesText } from "./board-filters";
import { JobCardPhoto } from "./job-card-photo";
import { dollars, publicPlace, relativeTime } from "./task-format";

export interface JobCardProps {
  /** A board item carries its first photo; other lists' tasks may not. */
  task: TaskPublic & Partial<Pick<BoardTask, "photo">>;
  /** The Claim button when offered: signed-out visitors (who are sent to sign in) and viewers who may claim. */
  claim: ActionButton | undefined;
  claiming: boolean;
  onClaim: () => void;
  /** Providers see their take-home pay ("You'll earn $25.50") instead of the poster's budget alone. */
  showEarnings?: boolean;
  /** The page puts Felix's budget evaluator here for providers. */
  evaluate?: ReactNode;
  /** The clock "Posted 5 minutes ago" is read on (the page's render time, lib/hydration.ts). */
  now: Date;
}

/** A job board card (docs/product.md#tasks): the whole title links to the task page. */
export function JobCard({ task, claim, claiming, onClaim, showEarnings = false, evaluate, now }: JobCardProps) {
  return (
    <Card className="flex flex-col" data-testid="job-card">
      {task.photo && <JobCardPhoto photo={task.photo} />}
      <CardHeader className="gap-3">
        <div className="flex flex-wrap gap-2">
          <TaskCategoryBadge category={task.category} />
          <TaskUrgencyBadge urgency={task.urgency} />
        </div>
        <CardTitle asChild className="text-lg leading-snug">
          <h2>
            <Link href={`/task/${task.id}`} className="hover:underline">
              {task.title}
            </Link>
          </h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-3 text-sm">
        <p className="line-clamp-3 text-muted-foreground">{task.description}</p>
        <p className="text-2xl font-bold text-primary">{dollars(task.budget)}</p>
        {showEarnings && (
          <p className="flex items-center gap-1.5 font-medium text-success">
            <Wallet className="size-4 shrink-0" aria-hidden="true" />
            {youllEarnText(dollarsToCents(task.providerShare))}
          </p>
        )}
        <p className="flex items-center gap-1.5 text-muted-foreground">
          <MapPin className="size-4 shrink-0" aria-hidden="true" />
          <span className="[overflow-wrap:anywhere]">{publicPlace(task)}</span>
          {/* Present only when the board was searched near a place (docs/product.md#job-board-filters). */}
          {task.distanceMiles !== null && (
            <span className="ml-auto shrink-0 font-medium text-foreground" data-testid="job-card-distance">
              {milesText(task.distanceMiles)}
            </span>
          )}
        </p>
        <p className="flex items-center gap-1.5 text-muted-foreground">
          <Clock className="size-4 shrink-0" aria-hidden="true" />
          {relativeTime(task.createdAt, now)}
        </p>
        <p className="flex flex-wrap items-center gap-x-2 text-muted-foreground">
          <span className="[overflow-wrap:anywhere]">
            Posted by{" "}
            <Link href={userProfilePath(task.poster.id)} className="font-medium text-foreground hover:underline">
              {task.poster.displayName}
            </Link>
          </span>
          <PosterRating rating={task.poster.rating} reviewCount={task.poster.reviewCount} />
        </p>
      </CardContent>
      <CardFooter className="flex flex-wrap gap-2">
        <Button asChild variant="outline" size="sm">
          <Link href={`/task/${task.id}`}>
            View Details<span className="sr-only"> for {task.title}</span>
          </Link>
        </Button>
        {claim && (
          <TaskActionButton task={task} button={claim} onRun={onClaim} pending={claiming} disabled={claiming} size="sm" srSuffix={` for ${task.title}`} />
        )}
        {evaluate}
      </CardFooter>
    </Card>
  );
}

/** A job card while the board loads: the same boxes and line heights, so the cards take its place without a jump. */
export function JobCardSkeleton() {
  return (
    <Card className="flex flex-col">
      <CardHeader className="gap-3">
        <div className="flex gap-2">
          <Skeleton className="h-[22px] w-24 rounded-full" />
          <Skeleton className="h-[22px] w-16 rounded-full" />
        </div>
        <p className="text-lg leading-snug">
          <SkeletonText className="w-3/4" />
        </p>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-3 text-sm">
        <p>
          <SkeletonText className="w-full" />
          <br />
          <SkeletonText className="w-2/3" />
        </p>
        <p className="text-2xl font-bold">
          <SkeletonText className="w-24" />
        </p>
        <p>
          <SkeletonText className="w-32" />
        </p>
        <p>
          <SkeletonText className="w-28" />
        </p>
        <p>
          <SkeletonText className="w-40" />
        </p>
      </CardContent>
      <CardFooter className="flex gap-2">
        <Skeleton className="h-9 w-28" />
        <Skeleton className="h-9 w-24" />
      </CardFooter>
    </Card>
  );
}
