// How a place's parts make one line: "12 Main St, Annapolis, MD". A part the address already holds
// is not repeated, so a town picked as the address reads "Annapolis, MD", not "Annapolis,
// Annapolis, MD" (docs/product.md#tasks). The task page, the posting review, Felix and the server's
// geocoding of a typed address all read a place through this one rule.

const present = (value: string | null | undefined): value is string => typeof value === "string" && value.trim() !== "";

/** True when one of the line's comma-separated parts is `part`, alone or before a ZIP code ("MD 21401"). */
function holds(kept: string[], part: string): boolean {
  const wanted = part.toLowerCase();
  return kept
    .flatMap((k) => k.split(","))
    .map((segment) => segment.trim().toLowerCase())
    .some((segment) => segment === wanted || (segment.startsWith(`${wanted} `) && /^\d{5}(?:-\d{4})?$/.test(segment.slice(wanted.length + 1))));
}

/** The address, town and state as one line without repeats; null when none is given. */
export function formatPlace(address: string | null | undefined, city: string | null | undefined, state: string | null | undefined): string | null {
  const kept: string[] = [];
  for (const part of [address, city, state].filter(present).map((p) => p.trim())) {
    if (!holds(kept, part)) kept.push(part);
  }
  return kept.length > 0 ? kept.join(", ") : null;
}
