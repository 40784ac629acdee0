import { useQueryClient } from "@tanstack/react-query";
import { CreditCard } from "lucide-react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { dollarsToCents, formatDollarsExact } from "@shared/money";
import { paymentReceivedWords } from "@shared/money-words";
import type { TaskDetail } from "@shared/tasks";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { toast } from "@/components/ui/use-toast";
import { useCreatePaymentIntent } from "../api/create-payment-intent";

// The card form (react-hook-form, zod, or Stripe's) is its own chunk, opened by a button that states
// the amount: it was 39 KB of the poster's first load of a claimed task (issue 17,
// docs/decisions/041-forms-loaded-on-first-use.md and 042-landing-under-90-kb.md). Fetched when the
// pointer or focus reaches the button, and beside the payment intent once it is pressed.
const loadCardPayment = () => import("./card-payment");
const CardPayment = lazy(() => loadCardPayment().then((m) => ({ default: m.CardPayment })));

// The tasks feature's query keys, refreshed by value so the two features stay independent.
const taskKey = (id: string) => ["/api/tasks", id] as const;
const myTasksKey = ["/api/tasks/my-tasks"] as const;

/** The card form inside the Payment Required card (poster, claimed, unpaid). */
export function TaskPaymentForm({ task }: { task: TaskDetail }) {
  const queryClient = useQueryClient();
  const createIntent = useCreatePaymentIntent();
  const [clientSecret, setClientSecret] = useState<string | null>(null);
  const [opened, setOpened] = useState(false);
  const started = useRef(false);
  const { mutate } = createIntent;
  // Past the deadline the server refuses a payment; until the sweeper marks the task expired the
  // page can still show it as claimed, so say so instead of asking for a card.
  const [deadlinePassed] = useState(() => task.paymentDeadline !== null && new Date(task.paymentDeadline).getTime() <= Date.now());

  useEffect(() => {
    // Once per mount: the server answers the same secret for a repeat, but one call is enough.
    if (!opened || started.current || deadlinePassed) return;
    started.current = true;
    void loadCardPayment();
    mutate(
      { amount: task.totalAmount, taskId: task.id },
      {
        onSuccess: (result) => setClientSecret(result.clientSecret),
        onError: () => toast({ title: "Error", description: "Failed to initialize payment", variant: "destructive" }),
      },
    );
  }, [opened, mutate, task.id, task.totalAmount, deadlinePassed]);

  function onPaid() {
    // Where the money is now and when it moves for this budget (docs/product.md, Money: escrow), not
    // "posted": the task was posted before.
    toast({
      title: "Payment Successful",
      description: paymentReceivedWords(dollarsToCents(task.totalAmount), dollarsToCents(task.budget)),
    });
    void queryClient.invalidateQueries({ queryKey: taskKey(task.id) });
    void queryClient.invalidateQueries({ queryKey: myTasksKey });
  }

  if (deadlinePassed) return <p className="text-sm text-muted-foreground">The payment window has closed.</p>;
  const amount = formatDollarsExact(dollarsToCents(task.totalAmount));
  if (!opened) {
    const prefetch = () => void loadCardPayment();
    return (
      <Button className="justify-self-start" onClick={() => setOpened(true)} onPointerEnter={prefetch} onFocus={prefetch}>
        <CreditCard aria-hidden="true" /> Pay by card ({amount})
      </Button>
    );
  }
  if (createIntent.isError) return <p className="text-sm text-destructive">Failed to initialize payment</p>;
  const preparing = <Spinner label="Preparing payment" />;
  if (!clientSecret) return preparing;
  return (
    <Suspense fallback={preparing}>
      <CardPayment
        clientSecret={clientSecret}
        submitLabel={`Pay ${amount}`}
        onPaid={onPaid}
      />
    </Suspense>
  );
}
