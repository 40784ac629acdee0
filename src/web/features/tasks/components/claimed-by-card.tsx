import { BadgeCheck, Star } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "wouter";
import type { TaskProviderCard } from "@shared/tasks";
import { Avatar, AvatarFallback, AvatarImage } from "@/components/ui/avatar";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";

// Who claimed the poster's task, before they pay (docs/product.md, "The poster sees who claimed"):
// photo or initials, display name linked to the public profile, rating, reviews and completed tasks.

/** "MG" from "Maria G.". */
function initialsOf(displayName: string): string {
  const letters = displayName
    .split(/\s+/)
    .map((part) => part.charAt(0))
    .join("")
    .replace(/[^\p{L}]/gu, "");
  return letters.slice(0, 2).toUpperCase() || "P";
}

export function ClaimedByCard({ provider, title = "Claimed by", actions }: { provider: TaskProviderCard; title?: string; actions?: ReactNode }) {
  const { displayName, profilePhotoUrl, rating, reviewCount, completedTasks } = provider;
  return (
    <Card data-testid="claimed-by-card">
      <CardHeader>
        <CardTitle asChild className="text-xl">
          <h2>{title}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex min-w-0 items-center gap-4">
          <Avatar className="size-14 shrink-0">
            {profilePhotoUrl ? <AvatarImage src={profilePhotoUrl} alt="" /> : null}
            <AvatarFallback aria-hidden="true">{initialsOf(displayName)}</AvatarFallback>
          </Avatar>
          <div className="grid min-w-0 gap-1 text-sm">
            <Link href={`/users/${provider.id}`} className="break-words text-base font-semibold text-primary underline-offset-4 hover:underline">
              {displayName}
            </Link>
            <span className="inline-flex items-center gap-1 text-muted-foreground">
              <BadgeCheck className="size-4 text-primary" aria-hidden="true" /> Verified provider
            </span>
            <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
              {rating === null || reviewCount === 0 ? (
                <span>No ratings yet</span>
              ) : (
                <span className="inline-flex items-center gap-1">
                  <Star className="size-4 fill-current text-warning" aria-hidden="true" />
                  {rating.toFixed(1)} ({reviewCount} {reviewCount === 1 ? "review" : "reviews"})
                </span>
              )}
              <span>
                {completedTasks} completed {completedTasks === 1 ? "task" : "tasks"}
              </span>
            </span>
          </div>
        </div>
        {actions}
      </CardContent>
    </Card>
  );
}
