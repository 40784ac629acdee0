import { Popover, PopoverAnchor, PopoverContent } from "@/components/ui/popover";
import type { DeferredOverlay } from "@/components/ui/use-deferred-overlay";
import { FilterForm, type FilterFormProps } from "./filter-form";

/**
 * The Filter panel, loaded at its button's first press with the form inside (filter-panel.tsx).
 * The button lives in the page, so the panel is placed beside it through its measured box.
 */
export function FilterPopover({ overlay, onApply, ...form }: FilterFormProps & { overlay: DeferredOverlay }) {
  return (
    <Popover open={overlay.open} onOpenChange={overlay.setOpen}>
      <PopoverAnchor virtualRef={overlay.anchor} />
      <PopoverContent
        align="end"
        aria-label="Filters"
        collisionPadding={16}
        onCloseAutoFocus={overlay.returnFocus}
        onInteractOutside={overlay.onInteractOutside}
        // The panel scrolls inside the room the page leaves it, so no part is out of reach on a phone.
        className="max-h-[var(--radix-popover-content-available-height)] w-[min(22rem,calc(100vw-2rem))] overflow-y-auto"
      >
        <FilterForm
          {...form}
          onApply={(next, nextSort) => {
            onApply(next, nextSort);
            overlay.setOpen(false);
          }}
        />
      </PopoverContent>
    </Popover>
  );
}
