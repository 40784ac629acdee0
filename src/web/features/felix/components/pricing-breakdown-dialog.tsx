import type { PricingBreakdown } from "@shared/felix-pricing";
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
  const multiplier = breakdown.urgencyMultiplier === 1 ? "" : ` × ${breakdown.urgencyMultiplier} ${URGENCY_LABELS[breakdown.urgency]}`;
  const rows: [string, string][] = [
    ["Distance", `${breakdown.distance} miles`],
    [`Mileage (${breakdown.distance} mi × $0.58)`, usdExact(breakdown.mileageCost)],
    [`Labor (${breakdown.laborHours} h × $20${multiplier})`, usdExact(breakdown.urgencyLaborCost)],
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
            Mileage at $0.58 a mile, labor at $20 an hour (driving at 50 mph plus half an hour) times the urgency multiplier, $10 a stop, at
            least $20, rounded to the nearest $5.
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
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Close
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
