import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { GEOCODE_DEBOUNCE_MS, GEOCODE_MIN_CHARS } from "@shared/constants";
import type { GeocodeResult } from "@shared/tasks";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { cn } from "@/lib/cn";
import { useAddressSearch } from "../api/search-addresses";

// Address autocomplete (docs/product.md#tasks): a text input with up to five suggestions from /api/geocode,
// searched from three characters after a 500 ms pause. It follows the ARIA combobox pattern
// (list autocomplete): arrows move the active option, Enter picks it, Escape closes the list.

export interface AddressAutocompleteProps {
  label: string;
  value: string;
  onChange: (text: string) => void;
  onSelect: (result: GeocodeResult) => void;
  required?: boolean;
  placeholder?: string;
  className?: string;
  /** The form's validation message for this address. */
  error?: string;
  onBlur?: () => void;
}

export function AddressAutocomplete({
  label,
  value,
  onChange,
  onSelect,
  required = false,
  placeholder,
  className,
  error,
  onBlur,
}: AddressAutocompleteProps) {
  const id = useId();
  const inputId = `address-${id}`;
  const listId = `${inputId}-list`;
  const containerRef = useRef<HTMLDivElement>(null);
  const [debounced, setDebounced] = useState(value);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);

  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), GEOCODE_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [value]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && !containerRef.current?.contains(event.target)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  const search = useAddressSearch(debounced);
  const suggestions = value.trim().length >= GEOCODE_MIN_CHARS ? (search.data ?? []) : [];
  const expanded = open && suggestions.length > 0;
  const loading = open && search.isFetching;

  const pick = (result: GeocodeResult) => {
    onSelect(result);
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (suggestions.length === 0) return;
      event.preventDefault();
      setOpen(true);
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((current) => (current + step + suggestions.length) % suggestions.length);
    } else if (event.key === "Enter" && expanded) {
      const chosen = suggestions[active];
      if (chosen) {
        event.preventDefault();
        pick(chosen);
      }
    } else if (event.key === "Escape" && expanded) {
      event.preventDefault();
      setOpen(false);
    }
  };

  return (
    <div ref={containerRef} className={cn("relative", className)}>
      <FormField label={label} required={required} id={inputId} error={error}>
        {(control) => (
          <Input
            {...control}
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls={listId}
            aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
            aria-busy={loading || undefined}
            autoComplete="off"
            value={value}
            placeholder={placeholder}
            onChange={(event) => {
              onChange(event.target.value);
              setOpen(true);
              setActive(-1);
            }}
            onKeyDown={onKeyDown}
            onBlur={onBlur}
          />
        )}
      </FormField>
      <ul
        id={listId}
        role="listbox"
        aria-label={`${label} suggestions`}
        hidden={!expanded}
        className="absolute top-full right-0 left-0 z-50 mt-1 max-h-64 overflow-y-auto rounded-md border bg-popover p-1 text-popover-foreground shadow-md"
      >
        {suggestions.map((result, index) => (
          <li
            key={`${result.displayName}-${result.lat}-${result.lon}`}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className="cursor-pointer rounded-sm px-3 py-2 text-sm aria-selected:bg-accent aria-selected:text-accent-foreground hover:bg-accent hover:text-accent-foreground"
            // Keep focus in the input so the outside-click check does not close the list first.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => pick(result)}
          >
            {result.displayName}
          </li>
        ))}
      </ul>
    </div>
  );
}
