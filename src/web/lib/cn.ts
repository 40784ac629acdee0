import { clsx, type ClassValue } from "clsx";
import { classGroup, overriddenGroups } from "./class-groups";

// Our own merge instead of tailwind-merge (docs/decisions/042-landing-under-90-kb.md): the same rules
// for the utilities this app writes, in about a quarter of the bytes of every page's first load.
// lib/cn.test.ts holds it to tailwind-merge's answers on every class in src/web; the version it
// mirrors and how to upgrade: docs/decisions/046-libraries-written-by-hand.md.

// Variants whose order changes what they select; the others are sorted, as tailwind-merge does.
const ORDERED_VARIANTS = new Set(["*", "**", "after", "backdrop", "before", "details-content", "file", "first-letter", "first-line", "marker", "placeholder", "selection"]);

interface Parsed {
  variants: string[];
  important: boolean;
  utility: string;
  /** Where a top-level `/modifier` starts in `utility` (`bg-primary/90`), if there is one. */
  slash: number | undefined;
}

/** Splits `md:hover:!bg-primary/90` into variants, `!`, the utility and its `/` modifier, outside brackets. */
function parse(className: string): Parsed {
  const variants: string[] = [];
  let depth = 0;
  let start = 0;
  let slash: number | undefined;
  for (let i = 0; i < className.length; i++) {
    const char = className[i];
    if (depth === 0 && char === ":") {
      variants.push(className.slice(start, i));
      start = i + 1;
    } else if (depth === 0 && char === "/") slash = i;
    else if (char === "[" || char === "(") depth++;
    else if (char === "]" || char === ")") depth--;
  }
  let utility = className.slice(start);
  let important = false;
  if (utility.endsWith("!")) [utility, important] = [utility.slice(0, -1), true];
  else if (utility.startsWith("!")) [utility, important] = [utility.slice(1), true];
  return { variants, important, utility, slash: slash !== undefined && slash > start ? slash - start : undefined };
}

/** Sorts variants, keeping arbitrary and order-sensitive ones where they are, so `hover:focus:` equals `focus:hover:`. */
function variantKey(variants: string[]): string {
  if (variants.length < 2) return variants.join(":");
  const sorted: string[] = [];
  let run: string[] = [];
  for (const variant of variants) {
    if (variant.startsWith("[") || ORDERED_VARIANTS.has(variant)) {
      sorted.push(...run.sort(), variant);
      run = [];
    } else run.push(variant);
  }
  return [...sorted, ...run.sort()].join(":");
}

/** Drops each Tailwind class that a later class overrides under the same variants; keeps the rest in order. */
function merge(classList: string): string {
  const taken = new Set<string>();
  const kept: string[] = [];
  const classes = classList.trim().split(/\s+/);
  for (let i = classes.length - 1; i >= 0; i--) {
    const className = classes[i] ?? "";
    const { variants, important, utility, slash } = parse(className);
    // `bg-primary/90` is `bg-primary` with an opacity; `aspect-4/3` has no group without its `/3`.
    const group = (slash === undefined ? undefined : classGroup(utility.slice(0, slash))) ?? classGroup(utility);
    if (group) {
      const scope = variantKey(variants) + (important ? "!" : "");
      if (taken.has(scope + group)) continue;
      taken.add(scope + group);
      for (const overridden of overriddenGroups(group)) taken.add(scope + overridden);
    }
    kept.push(className);
  }
  return kept.reverse().join(" ");
}

const cache = new Map<string, string>();

/** Joins conditional class names, letting later Tailwind utilities override conflicting earlier ones. */
export function cn(...inputs: ClassValue[]): string {
  const classList = clsx(inputs);
  let merged = cache.get(classList);
  if (merged === undefined) {
    merged = merge(classList);
    // Components render the same few lists over and over; a bound keeps odd ones from piling up.
    if (cache.size > 500) cache.clear();
    cache.set(classList, merged);
  }
  return merged;
}
