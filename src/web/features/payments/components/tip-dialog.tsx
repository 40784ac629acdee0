import { useState, type FormEvent } from "react";
import { MAX_TIP_CENTS, MIN_TIP_CENTS } from "@shared/payments";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/api";
import { randomId } from "@/lib/random-id";
import { useTipTask } from "../api/tip-task";
import { CardPayment } from "./card-payment";

function tipError(value: string): string | null {
  const amount = Number(value);
  if (value.trim() === "" || !Number.isFinite(amount)) return "Enter an amount";
  if (!/^\d+(\.\d{1,2})?$/.test(value.trim())) return "Use at most two decimals";
  const cents = Math.round(amount * 100);
  if (cents < MIN_TIP_CENTS) return "Tip must be at least $1";
  if (cents > MAX_TIP_CENTS) return "Tip must be at most $1,000";
  return null;
}

/** The poster's tip after completion; 100% goes to the provider. */
export function TipDialog({ taskId }: { taskId: string }) {
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [clientSecret, setClientSecret] = useState<string | null>(null);
  // One key per opening: a double click or a retry after a lost answer finds the same tip on the
  // server instead of charging again; the next opening is a new tip.
  const [idempotencyKey, setIdempotencyKey] = useState(() => randomId());
  const tip = useTipTask(taskId);

  function openChange(next: boolean) {
    if (next) setIdempotencyKey(randomId());
    setOpen(next);
  }

  function done() {
    toast({ title: "Tip Sent", description: "Thank you! 100% of your tip goes to the provider." });
    setOpen(false);
    setAmount("");
    setClientSecret(null);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = tipError(amount);
    setError(found);
    if (found) return;
    tip.mutate({ amount: Number(amount), idempotencyKey }, {
      onSuccess: (result) => (result.clientSecret ? setClientSecret(result.clientSecret) : done()),
      onError: (err) => toast({ title: "Tip Failed", description: errorMessage(err, "Your tip could not be sent."), variant: "destructive" }),
    });
  }

  return (
    <Dialog open={open} onOpenChange={openChange}>
      <DialogTrigger asChild>
        <Button variant="secondary">Tip</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Tip Your Provider</DialogTitle>
          <DialogDescription>No commission on tips: your provider receives all of it.</DialogDescription>
        </DialogHeader>
        {clientSecret ? (
          <CardPayment clientSecret={clientSecret} submitLabel="Send Tip" onPaid={done} />
        ) : (
          <form onSubmit={submit} noValidate className="grid gap-4">
            <FormField label="Tip amount ($)" required error={error} description="From $1 to $1,000.">
              <Input inputMode="decimal" placeholder="10" value={amount} onChange={(e) => setAmount(e.target.value)} />
            </FormField>
            <Button type="submit" disabled={tip.isPending}>
              {tip.isPending ? "Sending..." : "Send Tip"}
            </Button>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
