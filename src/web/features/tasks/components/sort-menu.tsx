import { SlidersHorizontal } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";

export type BoardSort = "newest" | "budget_desc" | "budget_asc";

export const BOARD_SORTS: { value: BoardSort; label: string }[] = [
  { value: "newest", label: "Newest" },
  { value: "budget_desc", label: "Budget: high to low" },
  { value: "budget_asc", label: "Budget: low to high" },
];

/** The job board's filter button (it sorts: docs/product.md#tasks). */
export function SortMenu({ value, onChange }: { value: BoardSort; onChange: (value: BoardSort) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button variant="outline">
          <SlidersHorizontal aria-hidden="true" /> Filter
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-60">
        <RadioGroup
          aria-label="Sort tasks by"
          value={value}
          onValueChange={(next) => {
            onChange(next as BoardSort);
            setOpen(false);
          }}
        >
          <p className="mb-1 text-sm font-medium">Sort by</p>
          {BOARD_SORTS.map((sort) => (
            <div key={sort.value} className="flex items-center gap-2">
              <RadioGroupItem id={`sort-${sort.value}`} value={sort.value} />
              <Label htmlFor={`sort-${sort.value}`}>{sort.label}</Label>
            </div>
          ))}
        </RadioGroup>
      </PopoverContent>
    </Popover>
  );
}
