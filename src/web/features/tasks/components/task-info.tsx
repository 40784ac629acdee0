import { CalendarClock, MapPin } from "lucide-react";
import { dollarsToCents, formatDollarsExact, youllEarnText } from "@shared/money";
import { MONEY_WORDS } from "@shared/money-words";
import { OFFICE_TIME_ZONE } from "@shared/office-clock";
import { formatPlace } from "@shared/places";
import type { StatementWords } from "@shared/statement-words";
import type { TaskDetail } from "@shared/tasks";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { SkeletonText } from "@/components/ui/skeleton";
import { useHydrating } from "@/lib/hydration";
import { dollars, publicPlace, scheduledDateLabel, scheduledDateLabelIn } from "./task-format";

// The read-only parts of the task page (docs/product.md#tasks): location, date and payment box.

const placeLine = (address: string | null, city: string | null, state: string | null): string => formatPlace(address, city, state) ?? "Not given";

/**
 * The poster's own open task that the server could not place (docs/product.md#tasks, "Where a task
 * is"): it is missing from distance searches, the map and job alerts, and a task's address cannot
 * be edited, so the way out is to post it again.
 */
export const UNPLACED_TASK_MESSAGE =
  "We could not find this address on the map, so this task does not show in searches by distance, on the map or in job alerts. It is still listed on the job board. To fix it, cancel this task and post it again with the town and state, or a ZIP code.";

/** Street addresses only when the server sent the private shape (poster, accepted provider, admin). */
export function TaskLocation({ task, isPoster = false }: { task: TaskDetail; isPoster?: boolean }) {
  const unplaced = isPoster && task.status === "open" && task.approxLat === null ? (
    <Alert role="status" variant="warning">
      <AlertDescription>{UNPLACED_TASK_MESSAGE}</AlertDescription>
    </Alert>
  ) : null;
  return (
    <>
      <TaskPlace task={task} />
      {unplaced}
    </>
  );
}

function TaskPlace({ task }: { task: TaskDetail }) {
  if (task.visibility === "public") {
    return (
      <div className="grid gap-1 text-sm">
        <p className="flex items-center gap-1.5">
          <MapPin className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          {publicPlace(task)}
        </p>
        <p className="text-muted-foreground">The full address is shown to the accepted provider.</p>
      </div>
    );
  }
  if (!task.isRoute) {
    return (
      <p className="flex items-center gap-1.5 text-sm">
        <MapPin className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        {placeLine(task.location, task.city, task.state)}
      </p>
    );
  }
  const stops = task.stops ?? [];
  return (
    <ol className="grid gap-2 text-sm">
      <li>
        <span className="font-medium">Start: </span>
        {placeLine(task.startLocation, task.startCity, task.startState)}
      </li>
      {stops.map((stop, index) => (
        <li key={`${index}-${stop.address ?? ""}`}>
          <span className="font-medium">Stop {index + 1}: </span>
          {placeLine(stop.address, stop.city, stop.state)}
          {stop.notes ? <span className="text-muted-foreground"> ({stop.notes})</span> : null}
        </li>
      ))}
      <li>
        <span className="font-medium">End: </span>
        {placeLine(task.endLocation, task.endCity, task.endState)}
      </li>
    </ol>
  );
}

/**
 * The date in the reader's own time; in the HTML the server rendered (and while the browser adopts
 * it) on the office's clock with its zone's name, since the server cannot know the reader's
 * (docs/decisions/036-server-rendered-data-pages.md).
 */
export function TaskSchedule({ scheduledDate }: { scheduledDate: string }) {
  const hydrating = useHydrating();
  return (
    <p className="flex items-center gap-1.5 text-sm">
      <CalendarClock className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <time dateTime={scheduledDate}>{hydrating ? scheduledDateLabelIn(scheduledDate, OFFICE_TIME_ZONE) : scheduledDateLabel(scheduledDate)}</time>
    </p>
  );
}

/** The provider's price rows: the same while their account loads and once it has come. */
function ProviderPriceRows({ task }: { task: TaskDetail }) {
  return (
    <>
      <div className="flex justify-between gap-2">
        <dt>Budget</dt>
        <dd>{dollars(task.budget)}</dd>
      </div>
      {task.urgentFee > 0 && (
        <div className="flex justify-between gap-2">
          <dt>Urgent bonus ({MONEY_WORDS.urgentSurcharge})</dt>
          <dd>{dollars(task.urgentFee)}</dd>
        </div>
      )}
    </>
  );
}

/**
 * The poster's fee lines and total; a provider sees what they take home instead (docs/product.md,
 * Fees): the share fixed when the task was priced, or once the task's money moved, the totals and
 * sentence of its account (`account`, from statementWords), so the box never says "pays nothing"
 * beside money received. While that account is coming (`accountPending`), its rows wait in their
 * place instead of saying what a task with no account would.
 */
export function TaskPaymentBox({
  task,
  providerView = false,
  account = null,
  accountPending = false,
}: {
  task: TaskDetail;
  providerView?: boolean;
  account?: Pick<StatementWords, "headline" | "totals"> | null;
  accountPending?: boolean;
}) {
  if (providerView && accountPending) {
    return (
      <div className="grid gap-2" aria-busy="true">
        <dl className="grid gap-1.5 rounded-md border bg-muted/40 p-4 text-sm" data-testid="payment-box">
          <ProviderPriceRows task={task} />
          <div className="flex justify-between gap-2 border-t pt-1.5 font-semibold">
            <SkeletonText className="w-32" />
            <SkeletonText className="w-14" />
          </div>
        </dl>
        <p className="text-sm text-muted-foreground">
          <SkeletonText className="w-3/4" />
        </p>
      </div>
    );
  }
  if (providerView) {
    const share = dollarsToCents(task.providerShare);
    // An account with nothing in it yet (claimed, not paid) leaves the share to come.
    const told = account && (account.headline !== null || account.totals.length > 0) ? account : null;
    return (
      <div className="grid gap-2">
        <dl className="grid gap-1.5 rounded-md border bg-muted/40 p-4 text-sm" data-testid="payment-box">
          <ProviderPriceRows task={task} />
          {told ? (
            told.totals.map((total) => (
              <div key={total.label} className="flex justify-between gap-2 border-t pt-1.5 font-semibold">
                <dt>{total.label}</dt>
                <dd>{formatDollarsExact(total.cents)}</dd>
              </div>
            ))
          ) : task.status === "cancelled" ? null : (
            <div className="flex justify-between gap-2 border-t pt-1.5 font-semibold">
              <dt>Your earnings ({MONEY_WORDS.providerSharePercent})</dt>
              <dd>{formatDollarsExact(share)}</dd>
            </div>
          )}
        </dl>
        <p className="text-sm text-muted-foreground">
          {told?.headline ?? (task.status === "cancelled" ? "This task was cancelled, so it pays nothing." : `${youllEarnText(share)}. ${MONEY_WORDS.providerKeeps}`)}
        </p>
      </div>
    );
  }
  return (
    <dl className="grid gap-1.5 rounded-md border bg-muted/40 p-4 text-sm" data-testid="payment-box">
      <div className="flex justify-between">
        <dt>Budget</dt>
        <dd>{dollars(task.budget)}</dd>
      </div>
      {task.urgentFee > 0 && (
        <div className="flex justify-between">
          <dt>Urgent fee ({MONEY_WORDS.urgentSurcharge})</dt>
          <dd>{dollars(task.urgentFee)}</dd>
        </div>
      )}
      <div className="flex justify-between">
        <dt>Service Fee (covers processing)</dt>
        <dd>{dollars(task.serviceFee)}</dd>
      </div>
      <div className="flex justify-between border-t pt-1.5 font-semibold">
        <dt>Total</dt>
        <dd>{dollars(task.totalAmount)}</dd>
      </div>
    </dl>
  );
}
