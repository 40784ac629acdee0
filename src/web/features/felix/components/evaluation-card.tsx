import { fairRange, type BudgetEvaluation, type MarketStats, type PricingBreakdown } from "@shared/felix-pricing";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/cn";
import { signedPercent, statusDisplay, usd, type FelixSubject } from "./felix-copy";

const BORDERS = { success: "border-success", warning: "border-warning", info: "border-info" } as const;

/**
 * Evaluation display (docs/product.md#felix): high green 'Great Opportunity', low yellow 'Below Market',
 * otherwise blue 'Fair Offer'; an offer's price in its own words (felix-copy.ts statusDisplay).
 */
export function EvaluationCard({
  evaluation,
  market,
  pricing,
  subject = "task",
}: {
  evaluation: BudgetEvaluation;
  market: MarketStats | null;
  pricing: PricingBreakdown | null;
  subject?: FelixSubject;
}) {
  const display = statusDisplay(evaluation.status, subject);
  const range = pricing && fairRange(pricing);
  return (
    <section aria-label="Budget evaluation" className={cn("rounded-lg border-2 bg-card p-4 text-card-foreground", BORDERS[display.tone])}>
      <div className="flex items-center justify-between gap-2">
        <Badge variant={display.tone}>{display.label}</Badge>
        <span className="text-sm font-semibold">{signedPercent(evaluation.percentDiff)}</span>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
        <dt className="text-muted-foreground">{subject === "task" ? "Offered budget" : subject === "offer" ? "This offer" : "Your price"}</dt>
        <dd className="text-right font-medium">{usd(evaluation.offeredBudget)}</dd>
        <dt className="text-muted-foreground">Fair budget</dt>
        <dd className="text-right font-medium">{usd(evaluation.fairBudget)}</dd>
        {range ? (
          <>
            <dt className="text-muted-foreground">Fair range</dt>
            <dd className="text-right font-medium">
              {usd(range.low)} to {usd(range.high)}
            </dd>
          </>
        ) : null}
        {market ? (
          <>
            <dt className="text-muted-foreground">Market median ({market.count} tasks)</dt>
            <dd className="text-right font-medium">{usd(market.median)}</dd>
            <dt className="text-muted-foreground">Market range</dt>
            <dd className="text-right font-medium">
              {usd(market.p25)} - {usd(market.p75)}
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}
