import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { z } from "zod";
import { dollarsToCents, formatDollars, formatDollarsExact } from "@shared/money";
import { MAX_TIP_CENTS, MIN_TIP_CENTS, tipBodySchema } from "@shared/payments";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import type { DeferredOverlay } from "@/components/ui/use-deferred-overlay";
import { toast } from "@/components/ui/use-toast";
import { amountText } from "@/lib/form";
import { randomId } from "@/lib/random-id";
import { useSchemaForm } from "@/lib/schema-form";
import { useTipTask } from "../api/tip-task";
import { CardPayment } from "./card-payment";

// The amount as typed, judged by the server's tip rules (their own messages).
const tipFormSchema = z.object({ amount: amountText(tipBodySchema.shape.amount, "Enter an amount") });
type TipFormInput = z.input<typeof tipFormSchema>;
type TipFormValues = z.output<typeof tipFormSchema>;

const TIP_RANGE = `From ${formatDollars(MIN_TIP_CENTS)} to ${formatDollars(MAX_TIP_CENTS)}.`;

/**
 * The poster's tip after completion; 100% goes to the provider. The amount is confirmed before the
 * card is charged (docs/product.md, Web app: "Confirmations"). Loaded at its Tip button's first
 * press (task-escrow-actions.tsx), which opens it.
 */
export function TipDialog({ overlay, taskId, providerName }: { overlay: DeferredOverlay; taskId: string; providerName: string }) {
  const form = useSchemaForm<TipFormInput, TipFormValues>({ resolver: zodResolver(tipFormSchema), defaultValues: { amount: "" } });
  const [clientSecret, setClientSecret] = useState<string | null>(null);
  // The amount awaiting the poster's yes; null while they type it.
  const [confirming, setConfirming] = useState<number | null>(null);
  // One key per opening: a double click or a retry after a lost answer finds the same tip on the
  // server instead of charging again; a new key is drawn at each closing, so the next opening is a new tip.
  const [idempotencyKey, setIdempotencyKey] = useState(() => randomId());
  const tip = useTipTask(taskId);

  // Radix only ever asks this dialog to close: the button that opens it is not Radix's trigger.
  function close() {
    setIdempotencyKey(randomId());
    setConfirming(null);
    overlay.setOpen(false);
  }

  function done() {
    toast({ title: "Tip Sent", description: "Thank you! 100% of your tip goes to the provider." });
    form.reset({ amount: "" });
    setClientSecret(null);
    close();
  }

  const submit = form.handleSubmit(({ amount }) => setConfirming(amount));

  function send(amount: number) {
    tip.mutate(
      { amount, idempotencyKey },
      {
        onSuccess: (result) => (result.clientSecret ? setClientSecret(result.clientSecret) : done()),
        onError: (error) => {
          const rest = form.showServerErrors(error, "Your tip could not be sent.");
          if (rest) toast({ title: "Tip Failed", description: rest, variant: "destructive" });
        },
      },
    );
  }

  return (
    <Dialog open={overlay.open} onOpenChange={close}>
      <DialogContent onCloseAutoFocus={overlay.returnFocus}>
        <DialogHeader>
          <DialogTitle>Tip Your Provider</DialogTitle>
          <DialogDescription>No commission on tips: your provider receives all of it.</DialogDescription>
        </DialogHeader>
        {clientSecret ? (
          <CardPayment clientSecret={clientSecret} submitLabel="Send Tip" onPaid={done} />
        ) : confirming !== null ? (
          <div className="grid gap-4" role="group" aria-label="Confirm your tip">
            <p className="text-sm">
              Send a {formatDollarsExact(dollarsToCents(confirming))} tip to {providerName}? It is charged to your card and{" "}
              {providerName} receives all of it. A tip cannot be taken back.
            </p>
            <DialogFooter>
              <Button variant="outline" onClick={() => setConfirming(null)} disabled={tip.isPending}>
                Change amount
              </Button>
              <Button onClick={() => send(confirming)} disabled={tip.isPending}>
                {tip.isPending ? "Sending..." : `Yes, send ${formatDollarsExact(dollarsToCents(confirming))} tip`}
              </Button>
            </DialogFooter>
          </div>
        ) : (
          <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-4">
            <FormField label="Tip amount ($)" required error={form.formState.errors.amount?.message} description={TIP_RANGE}>
              <Input inputMode="decimal" placeholder="e.g. 10" {...form.register("amount")} />
            </FormField>
            <Button type="submit" disabled={tip.isPending}>
              Review Tip
            </Button>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
