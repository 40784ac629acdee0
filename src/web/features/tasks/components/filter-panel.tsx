import { SlidersHorizontal } from "lucide-react";
import { lazy, Suspense } from "react";
import { Button } from "@/components/ui/button";
import { useDeferredOverlay } from "@/components/ui/use-deferred-overlay";
import { hasBoardFilters, type BoardFilterValues, type BoardSort } from "./board-filters";

// The job board's Filter button (docs/product.md#job-board-filters). The panel (Radix Popover,
// Floating UI) and the form inside it (react-hook-form, the radio groups) are their own chunk,
// fetched when the pointer or focus reaches the button and shown at its press: the board's first
// load carries only the button (issue 17, docs/decisions/041-forms-loaded-on-first-use.md).

const loadPopover = () => import("./filter-popover");
const FilterPopover = lazy(() => loadPopover().then((m) => ({ default: m.FilterPopover })));

export interface FilterPanelProps {
  values: BoardFilterValues;
  sort: BoardSort;
  /** "Near me" without the browser's position: the ZIP code of the provider's profile, when they have one. */
  fallbackZip: string | null;
  onApply: (values: BoardFilterValues, sort: BoardSort) => void;
}

export function FilterPanel(props: FilterPanelProps) {
  const overlay = useDeferredOverlay(loadPopover);
  const active = hasBoardFilters(props.values);

  return (
    <>
      <Button variant="outline" aria-label={active ? "Filter (filters on)" : "Filter"} {...overlay.triggerProps}>
        <SlidersHorizontal aria-hidden="true" /> Filter
        {active && <span className="size-2 rounded-full bg-primary" aria-hidden="true" />}
      </Button>
      {overlay.mounted && (
        <Suspense fallback={null}>
          <FilterPopover overlay={overlay} {...props} />
        </Suspense>
      )}
    </>
  );
}
