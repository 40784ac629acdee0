import { zodResolver } from "@hookform/resolvers/zod";
import type { ReactNode } from "react";
import { useWatch } from "react-hook-form";
import { MIN_BUDGET_CENTS, type Urgency } from "@shared/constants";
import { centsToDollars, formatDollars } from "@shared/money";
import { MONEY_WORDS } from "@shared/money-words";
import { offerAcceptWords, offerBodySchema, offerQuote, type Offer, type OfferBody } from "@shared/offers";
import type { TaskProviderCard } from "@shared/tasks";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmActionDialog } from "@/components/ui/confirm-action-dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/api";
import { maxLengthOf } from "@/lib/form";
import { useSchemaForm } from "@/lib/schema-form";
import { useAcceptOffer } from "../api/accept-offer";
import { useOffers } from "../api/get-offers";
import { useMakeOffer } from "../api/make-offer";
import { useWithdrawOffer } from "../api/withdraw-offer";

// Offers on a task that takes them (docs/product.md, Offers): the poster compares every offer, with
// the provider's card and Felix's reading of the price, and accepts one after a confirmation that
// states the total first; a verified provider makes, changes or withdraws their own. The page hands
// in the provider card and the Felix button, which belong to other features.

export interface TaskOffersProps {
  task: { id: string; urgency: Urgency };
  /** The poster's view: every offer, with Accept. */
  isPoster: boolean;
  /** A verified provider other than the poster: their own offer and its form. */
  canOffer: boolean;
  providerCard: (provider: TaskProviderCard, title: string, actions: ReactNode) => ReactNode;
  felix: (offer: Offer) => ReactNode;
  /** Felix on the price the provider is typing (null until it is a number), not the task's budget. */
  felixForPrice: (price: number | null) => ReactNode;
  /** The poster accepted an offer: the page brings its payment card into view (issue 41). */
  onAccepted?: () => void;
}

export function TaskOffers({ task, isPoster, canOffer, providerCard, felix, felixForPrice, onAccepted }: TaskOffersProps) {
  const offers = useOffers(task.id, isPoster || canOffer);
  const list = (offers.data?.offers ?? []).filter((o) => o.status === "open");
  if (isPoster) return <PosterOffers task={task} offers={list} loading={offers.isLoading} providerCard={providerCard} felix={felix} onAccepted={onAccepted} />;
  // The form starts from the stored offer, so it waits for it; a new or withdrawn one starts empty.
  if (canOffer) return offers.isLoading ? null : <OwnOffer key={list[0]?.id ?? "new"} taskId={task.id} offer={list[0] ?? null} felixForPrice={felixForPrice} />;
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-xl">
          <h2>Offers</h2>
        </CardTitle>
        <CardDescription>The poster is reviewing offers. Verified providers can make one from this page.</CardDescription>
      </CardHeader>
    </Card>
  );
}

function PosterOffers({
  task,
  offers,
  loading,
  providerCard,
  felix,
  onAccepted,
}: {
  task: TaskOffersProps["task"];
  offers: Offer[];
  loading: boolean;
  providerCard: TaskOffersProps["providerCard"];
  felix: TaskOffersProps["felix"];
  onAccepted: TaskOffersProps["onAccepted"];
}) {
  const accept = useAcceptOffer(task.id);
  return (
    <section aria-labelledby="offers-heading" className="grid gap-4">
      <h2 id="offers-heading" className="text-xl font-semibold">
        Offers ({offers.length})
      </h2>
      {!loading && offers.length === 0 ? (
        <p className="text-sm text-muted-foreground">No offers yet. Verified providers near you can see your task; you will be told of each offer.</p>
      ) : null}
      {offers.map((offer) => {
        const quote = offerQuote(Math.round(offer.price * 100), task.urgency);
        return (
          <div key={offer.id} data-testid="offer-card">
            {providerCard(
              offer.provider,
              `${formatDollars(quote.budgetCents)} from ${offer.provider.displayName}`,
              <div className="grid gap-3 text-sm">
                <p className="whitespace-pre-line [overflow-wrap:anywhere]">{offer.message}</p>
                <p>
                  <span className="font-medium">When: </span>
                  <span className="[overflow-wrap:anywhere]">{offer.availability}</span>
                </p>
                <p className="text-muted-foreground">You would pay {formatDollars(quote.totalCents)} with fees.</p>
                <div className="flex flex-wrap gap-2">
                  <ConfirmActionDialog
                    trigger={<Button disabled={accept.isPending}>Accept {formatDollars(quote.budgetCents)} offer</Button>}
                    title={`Accept ${offer.provider.displayName}'s offer?`}
                    lines={[offerAcceptWords(offer.provider.displayName, quote)]}
                    // Accepting does not charge: the card form comes next, on the task page (issue 41).
                    confirmLabel="Accept and go to payment"
                    onConfirm={() =>
                      // The price shown here: if the provider changed it since, the server refuses
                      // saying the new price, and the list is read again (docs/decisions/061-offers.md).
                      accept.mutate(offer, {
                        onSuccess: () => {
                          toast({ title: "Offer accepted", description: `Pay ${formatDollars(quote.totalCents)} by card below to confirm it.` });
                          onAccepted?.();
                        },
                        onError: (error) => toast({ title: "Could not accept", description: errorMessage(error, "Please try again."), variant: "destructive" }),
                      })
                    }
                  />
                  {felix(offer)}
                </div>
              </div>,
            )}
          </div>
        );
      })}
    </section>
  );
}

function OwnOffer({ taskId, offer, felixForPrice }: { taskId: string; offer: Offer | null; felixForPrice: TaskOffersProps["felixForPrice"] }) {
  const make = useMakeOffer(taskId);
  const withdraw = useWithdrawOffer(taskId);
  const form = useSchemaForm<OfferBody>({
    resolver: zodResolver(offerBodySchema),
    defaultValues: offer ? { price: offer.price, message: offer.message, availability: offer.availability } : { message: "", availability: "" },
  });
  const { errors } = form.formState;
  const typed = useWatch({ control: form.control, name: "price" });
  const price = typeof typed === "number" && Number.isFinite(typed) && typed > 0 ? typed : null;
  const submit = form.handleSubmit((body) =>
    make.mutate(body, {
      onSuccess: () => toast({ title: offer ? "Offer changed" : "Offer sent", description: "The poster has been told. You can change or withdraw it while the task is open." }),
      onError: (error) => {
        const rest = form.showServerErrors(error, "Your offer was not sent. Please try again.");
        if (rest) toast({ title: "Offer not sent", description: rest, variant: "destructive" });
      },
    }),
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-xl">
          <h2>{offer ? "Your offer" : "Make an offer"}</h2>
        </CardTitle>
        <CardDescription>
          {offer
            ? `You offered ${formatDollars(Math.round(offer.price * 100))}. The poster sees it with your profile; change or withdraw it while the task is open.`
            : `This poster reviews offers. Name your price (at least ${MONEY_WORDS.minimumBudget}), say when you can do it, and add a short message.`}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-4">
          <FormField label="Your price ($)" required error={errors.price?.message} description="What you will be paid before the platform's share.">
            <Input type="number" inputMode="decimal" min={centsToDollars(MIN_BUDGET_CENTS)} step="0.01" {...form.register("price", { valueAsNumber: true })} />
          </FormField>
          <FormField label="When you can do it" required error={errors.availability?.message}>
            <Input maxLength={maxLengthOf(offerBodySchema.shape.availability)} placeholder="e.g. Saturday morning" {...form.register("availability")} />
          </FormField>
          <FormField label="Message to the poster" required error={errors.message?.message}>
            <Textarea rows={3} maxLength={maxLengthOf(offerBodySchema.shape.message)} {...form.register("message")} />
          </FormField>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={make.isPending}>
              {make.isPending ? "Sending..." : offer ? "Change offer" : "Send offer"}
            </Button>
            {offer ? (
              <Button
                type="button"
                variant="outline"
                disabled={withdraw.isPending}
                onClick={() =>
                  withdraw.mutate(undefined, {
                    onSuccess: () => {
                      form.reset({ message: "", availability: "" });
                      toast({ title: "Offer withdrawn", description: "The poster no longer sees it. You can make a new one while the task is open." });
                    },
                    onError: (error) => toast({ title: "Could not withdraw", description: errorMessage(error, "Please try again."), variant: "destructive" }),
                  })
                }
              >
                Withdraw offer
              </Button>
            ) : null}
          </div>
        </form>
        {/* Outside the form: the dialog's own form would otherwise bubble its submit into this one through the portal. */}
        <div className="mt-3 flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
          {felixForPrice(price)}
          <span>Felix judges the price you type, not the task's budget.</span>
        </div>
      </CardContent>
    </Card>
  );
}
