import { LABOR_RATE_PER_HOUR, fairRange, type PricingBreakdown } from "@shared/felix-pricing";
import { unitCount } from "@shared/felix-work";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { usd, usdExact } from "./felix-copy";

const URGENCY_LABELS = { standard: "Standard", urgent: "Urgent", flexible: "Flexible" } as const;

export function PricingBreakdownDialog({
  breakdown,
  open,
  onOpenChange,
}: {
  breakdown: PricingBreakdown;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  // The money lines are the ones summed, each from the figures in its label, so they add up to the total (docs/product.md#felix).
  const b = breakdown;
  const multiplier = b.urgencyMultiplier === 1 ? "" : ` × ${b.urgencyMultiplier} ${URGENCY_LABELS[b.urgency]}`;
  const helpers = b.helpers > 1 ? ` × ${b.helpers} helpers` : "";
  // Hourly work: driving and work hours at one rate; by the night or visit: driving at $20 an hour plus the units at their rate.
  const labor =
    b.workUnit === "hour"
      ? `(${b.driveHours} h driving + ${b.workQuantity} h work) × ${usd(b.rate)}${helpers}`
      : `${b.driveHours} h driving × ${usd(LABOR_RATE_PER_HOUR)} + ${unitCount(b.workUnit, b.workQuantity)} × ${usd(b.rate)}${helpers}`;
  const rows: [string, string][] = [
    ["Distance", `${b.distance} miles`],
    [`Mileage (${b.distance} mi × $0.58)`, usdExact(b.mileageCost)],
    [`Labor: ${labor}${multiplier}`, usdExact(b.urgencyLaborCost)],
    [`Stops (${breakdown.stops} × $10)`, usdExact(breakdown.stopsCost)],
    ...(breakdown.minimumTopUp > 0 ? [["Up to the $20 minimum", usdExact(breakdown.minimumTopUp)] as [string, string]] : []),
    ["Total", usdExact(breakdown.total)],
  ];
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent hideCloseButton>
        <DialogHeader>
          <DialogTitle>Pricing Breakdown</DialogTitle>
          <DialogDescription>
            Mileage at $0.58 a mile; labor is the driving time at 50 mph plus the work&apos;s own hours (or nights or visits) at the rate for
            this kind of job, times the urgency multiplier; $10 a stop; at least $20; rounded to the nearest $5.
          </DialogDescription>
        </DialogHeader>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
          {rows.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="text-right font-medium">{value}</dd>
            </div>
          ))}
          <dt className="border-t pt-2 font-semibold">Suggested budget</dt>
          <dd className="border-t pt-2 text-right text-base font-semibold">{usd(breakdown.suggestedBudget)}</dd>
        </dl>
        <p className="text-sm text-muted-foreground">
          Fair range: {usd(fairRange(breakdown).low)} to {usd(fairRange(breakdown).high)}, from the low and high ends of the work&apos;s size and rate.
        </p>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Close
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
