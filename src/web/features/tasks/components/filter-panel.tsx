import { SlidersHorizontal } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { Button } from "@/components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { Spinner } from "@/components/ui/spinner";
import { hasBoardFilters, type BoardFilterValues, type BoardSort } from "./board-filters";

// The job board's Filter button (docs/product.md#job-board-filters). The form inside is its own
// chunk (filter-form.tsx), fetched when the pointer or focus reaches the button and shown when the
// panel opens: the board's first load leaves out react-hook-form and the radio groups (issue 17).

const loadForm = () => import("./filter-form");
const FilterForm = lazy(() => loadForm().then((m) => ({ default: m.FilterForm })));

export interface FilterPanelProps {
  values: BoardFilterValues;
  sort: BoardSort;
  /** "Near me" without the browser's position: the ZIP code of the provider's profile, when they have one. */
  fallbackZip: string | null;
  onApply: (values: BoardFilterValues, sort: BoardSort) => void;
}

export function FilterPanel({ values, sort, fallbackZip, onApply }: FilterPanelProps) {
  const [open, setOpen] = useState(false);
  const active = hasBoardFilters(values);

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button variant="outline" aria-label={active ? "Filter (filters on)" : "Filter"} onPointerEnter={() => void loadForm()} onFocus={() => void loadForm()}>
          <SlidersHorizontal aria-hidden="true" /> Filter
          {active && <span className="size-2 rounded-full bg-primary" aria-hidden="true" />}
        </Button>
      </PopoverTrigger>
      <PopoverContent
        align="end"
        aria-label="Filters"
        collisionPadding={16}
        // The panel scrolls inside the room the page leaves it, so no part is out of reach on a phone.
        className="max-h-[var(--radix-popover-content-available-height)] w-[min(22rem,calc(100vw-2rem))] overflow-y-auto"
      >
        <Suspense fallback={<Spinner label="Loading filters..." />}>
          <FilterForm
            values={values}
            sort={sort}
            fallbackZip={fallbackZip}
            onApply={(next, nextSort) => {
              onApply(next, nextSort);
              setOpen(false);
            }}
          />
        </Suspense>
      </PopoverContent>
    </Popover>
  );
}
