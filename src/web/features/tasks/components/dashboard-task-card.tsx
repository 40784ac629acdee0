import { CalendarClock, CreditCard, MapPin, MessageSquare } from "lucide-react";
import { Link } from "wouter";
import type { TaskPrivate } from "@shared/tasks";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton, SkeletonText } from "@/components/ui/skeleton";
import { posterOwesPayment } from "./task-actions";
import { TaskCategoryBadge, TaskStatusBadge, TaskUrgencyBadge } from "./task-badges";
import { dashboardDate, dollars, publicPlace } from "./task-format";

/** A task on the dashboard (docs/product.md#web-app): dates 'MMM d, h:mm a', payment prompt, details link. */
export function DashboardTaskCard({ task, viewerId }: { task: TaskPrivate; viewerId: string }) {
  const mustPay = posterOwesPayment(task, viewerId, new Date());
  return (
    <Card className="flex flex-col" data-testid="dashboard-task-card">
      <CardHeader className="gap-3">
        <div className="flex flex-wrap gap-2">
          <TaskStatusBadge status={task.status} settlement={task.settlement} />
          <TaskCategoryBadge category={task.category} />
          <TaskUrgencyBadge urgency={task.urgency} />
        </div>
        <CardTitle asChild className="text-lg leading-snug">
          <h3>{task.title}</h3>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid flex-1 gap-2 text-sm">
        <p className="text-xl font-bold text-primary">{dollars(task.budget)}</p>
        <p className="flex items-center gap-1.5 text-muted-foreground">
          <MapPin className="size-4 shrink-0" aria-hidden="true" />
          {publicPlace(task)}
        </p>
        <p className="text-muted-foreground">Posted {dashboardDate(task.createdAt)}</p>
        {task.scheduledDate && (
          <p className="flex items-center gap-1.5 text-muted-foreground">
            <CalendarClock className="size-4 shrink-0" aria-hidden="true" />
            Needed {dashboardDate(task.scheduledDate)}
          </p>
        )}
      </CardContent>
      <CardFooter className="flex flex-wrap gap-2">
        {mustPay && (
          <Button asChild size="sm">
            <Link href={`/task/${task.id}`}>
              <CreditCard aria-hidden="true" /> Make Payment Now<span className="sr-only"> for {task.title}</span>
            </Link>
          </Button>
        )}
        <Button asChild variant="outline" size="sm">
          <Link href={`/task/${task.id}`}>
            <MessageSquare aria-hidden="true" /> View Details & Chat<span className="sr-only"> for {task.title}</span>
          </Link>
        </Button>
      </CardFooter>
    </Card>
  );
}

/** A dashboard card while the list loads: the same boxes and line heights as DashboardTaskCard. */
export function DashboardTaskCardSkeleton() {
  return (
    <Card className="flex flex-col">
      <CardHeader className="gap-3">
        <div className="flex gap-2">
          <Skeleton className="h-[22px] w-14 rounded-full" />
          <Skeleton className="h-[22px] w-24 rounded-full" />
        </div>
        <p className="text-lg leading-snug">
          <SkeletonText className="w-3/4" />
        </p>
      </CardHeader>
      <CardContent className="grid flex-1 gap-2 text-sm">
        <p className="text-xl font-bold">
          <SkeletonText className="w-20" />
        </p>
        <p>
          <SkeletonText className="w-32" />
        </p>
        <p>
          <SkeletonText className="w-36" />
        </p>
      </CardContent>
      <CardFooter>
        <Skeleton className="h-9 w-44" />
      </CardFooter>
    </Card>
  );
}
