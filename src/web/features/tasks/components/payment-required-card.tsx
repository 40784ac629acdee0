import { CreditCard } from "lucide-react";
import { useEffect, useRef, type ReactNode } from "react";
import type { TaskPrivate, TaskPublic } from "@shared/tasks";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PaymentCountdown } from "./payment-countdown";

type PayingTask = Pick<TaskPublic, "hiringMode" | "paymentDeadline" | "requestOutcome"> & { provider: Pick<NonNullable<TaskPrivate["provider"]>, "displayName"> | null };

/**
 * How the provider the poster now pays for came to the task, in the poster's words (issue 41): an
 * offer the poster accepted, a request the provider accepted, or a claim. "A provider claimed your
 * task" after the poster chose one read as if someone else had.
 */
function paymentReason(task: PayingTask): string {
  const name = task.provider?.displayName ?? "The provider";
  if (task.hiringMode === "offers") return `You accepted ${name}'s offer.`;
  if (task.requestOutcome === "accepted") return `${name} accepted your request.`;
  return `${name} claimed your task.`;
}

/**
 * The poster's "Payment Required" card (docs/product.md, Task states); the page hands in the payment
 * form, which is another feature's. `bringIntoView`: the poster has just accepted an offer on this
 * page, so the card is scrolled to the middle of the screen (clear of the sticky header and, on a
 * phone, of the "Offer accepted" toast at the top) and its heading focused; on a phone it is
 * otherwise below the fold and nothing says where to pay (issue 41).
 */
export function PaymentRequiredCard({ task, bringIntoView, children }: { task: PayingTask; bringIntoView: boolean; children: ReactNode }) {
  const card = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!bringIntoView) return;
    // The offers and their confirmation dialog unmount in the render that mounts this card; Radix's
    // focus scope then returns focus on a timer of its own. Ours is queued after it, so it wins.
    const timer = window.setTimeout(() => {
      card.current?.scrollIntoView({ block: "center", behavior: "smooth" });
      heading.current?.focus({ preventScroll: true });
    }, 0);
    return () => window.clearTimeout(timer);
  }, [bringIntoView]);
  return (
    <Card ref={card} className="border-warning">
      <CardHeader>
        <CardTitle asChild className="flex items-center gap-2 text-xl">
          <h2 ref={heading} tabIndex={-1} className="outline-none">
            <CreditCard className="size-5" aria-hidden="true" /> Payment Required
          </h2>
        </CardTitle>
        <CardDescription>{paymentReason(task)} Pay to confirm it; the money is held in escrow until the work is done.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {task.paymentDeadline && (
          <p className="text-sm">
            Time left to pay: <PaymentCountdown deadline={task.paymentDeadline} />
          </p>
        )}
        {children}
      </CardContent>
    </Card>
  );
}
