import { SlidersHorizontal } from "lucide-react";
import { Button } from "@/components/ui/button";
import { DeferredDialog, deferredPart } from "@/components/ui/deferred-dialog";
import { hasBoardFilters, type BoardFilterValues, type BoardSort } from "./board-filters";

// The job board's Filter button (docs/product.md#job-board-filters). The panel (Radix Popover,
// Floating UI) and the form inside it (react-hook-form, the radio groups) are their own chunk,
// fetched when the pointer or focus reaches the button and shown at its press: the board's first
// load carries only the button (issue 17, docs/decisions/041-forms-loaded-on-first-use.md).

const filterPopover = deferredPart(() => import("./filter-popover"), (m) => m.FilterPopover);

export interface FilterPanelProps {
  values: BoardFilterValues;
  sort: BoardSort;
  /** "Near me" without the browser's position: the ZIP code of the provider's profile, when they have one. */
  fallbackZip: string | null;
  onApply: (values: BoardFilterValues, sort: BoardSort) => void;
}

export function FilterPanel(props: FilterPanelProps) {
  const active = hasBoardFilters(props.values);

  return (
    <DeferredDialog
      part={filterPopover}
      trigger={
        <Button variant="outline" aria-label={active ? "Filter (filters on)" : "Filter"}>
          <SlidersHorizontal aria-hidden="true" /> Filter
          {active && <span className="size-2 rounded-full bg-primary" aria-hidden="true" />}
        </Button>
      }
    >
      {(overlay) => <filterPopover.Component overlay={overlay} {...props} />}
    </DeferredDialog>
  );
}
