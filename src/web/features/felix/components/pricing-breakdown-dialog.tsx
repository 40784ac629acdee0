import type { PricingBreakdown } from "@shared/felix-pricing";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { usd } from "./felix-copy";

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
  const rows: [string, string][] = [
    ["Distance", `${breakdown.distance} miles`],
    ["Mileage cost", usd(breakdown.mileageCost)],
    ["Labor hours", `${breakdown.laborHours} hours`],
    ["Labor cost", usd(breakdown.laborCost)],
    ["Urgency multiplier", `${URGENCY_LABELS[breakdown.urgency]} ×${breakdown.urgencyMultiplier}`],
    [`Stops cost (${breakdown.stops})`, usd(breakdown.stopsCost)],
    ["Total", usd(breakdown.total)],
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
