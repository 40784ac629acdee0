/// <reference types="node" />
// (These tests read the source tree with node:fs; the web program has no Node types otherwise.)
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { twMerge } from "tailwind-merge";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "@/testing/source-files";
import { cn } from "./cn";

// cn() replaced tailwind-merge to lighten every first load (docs/decisions/042-landing-under-90-kb.md).
// These tests hold it to tailwind-merge's answers on every class name written anywhere in src/web,
// so a class that the table in lib/class-groups.ts gets wrong fails here, not on a screen.

/** The words of every string literal in the web app's source, but the table's own: its strings are prefixes and values, not class lists. */
const literals = sourceFiles().filter((file) => !file.endsWith("class-groups.ts")).flatMap((file) =>
  [...readFileSync(file, "utf8").matchAll(/"([^"\n]*)"|'([^'\n]*)'|`([^`]*)`/g)].map((match) =>
    (match[1] ?? match[2] ?? match[3] ?? "").split(/\s+/).filter((word) => word !== "" && !word.includes("${")),
  ),
);
/** tailwind-merge takes a word for a Tailwind class when it drops the first of two equal ones. */
const isClass = (word: string) => twMerge(`${word} ${word}`) === word;
/** Every class name in the source, by tailwind-merge's reading. */
const classes = [...new Set(literals.flat().filter(isClass))].sort();
/** Every word of a literal that holds a class name: what cn() is given, the app's own classes among them. */
const classListWords = [...new Set(literals.filter((words) => words.some(isClass)).flat())].sort();

describe("cn", () => {
  it("reads the app's source: hundreds of class names, with variants, modifiers and arbitrary values", () => {
    expect(classes.length).toBeGreaterThan(400);
    for (const sample of ["sm:flex-row", "bg-primary/90", "min-h-[calc(100vh-4rem)]", "[&>svg]:size-4", "-translate-x-1/2"]) {
      expect(classes).toContain(sample);
    }
  });

  it("takes the same words of class lists for Tailwind classes as tailwind-merge", () => {
    // The app's own animation, unknown to tailwind-merge.
    expect(classListWords.some((word) => word.endsWith(":animate-fade-in"))).toBe(true);
    const differing = classListWords.filter((word) => cn(word, word) !== twMerge(word, word));
    expect(differing).toEqual([]);
  });

  it("resolves every pair of the app's class names as tailwind-merge does, in both orders", () => {
    const differing: string[] = [];
    for (const first of classes) {
      for (const second of classes) {
        if (first !== second && cn(first, second) !== twMerge(first, second)) differing.push(`${first} ${second}`);
      }
    }
    expect(differing).toEqual([]);
    // Every pair of the app's class names: it grows with the square of the source's vocabulary
    // (a million pairs and more), so it gets more than the default five seconds on a busy machine.
  }, 60_000);

  it("resolves longer lists, and the same classes under variants in any order, as tailwind-merge does", () => {
    const variants = fc.subarray(["hover", "focus-visible", "sm", "md", "dark", "disabled", "before", "*", "[&>svg]", "data-[state=open]", "aria-invalid"]);
    const utility = fc.constantFrom(...classes.filter((c) => !c.includes(":")));
    const className = fc
      .tuple(fc.shuffledSubarray(["hover", "sm", "before", "[&>svg]"]), variants, utility, fc.boolean())
      .map(([order, extra, base, important]) => [...order, ...extra].map((v) => `${v}:`).join("") + base + (important ? "!" : ""));
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...classes), className, utility), { minLength: 1, maxLength: 8 }), (list) => {
        expect(cn(...list)).toBe(twMerge(...list));
      }),
      { numRuns: 3000 },
    );
  });

  it("joins conditional inputs like clsx, and a caller's class overrides the component's default", () => {
    const hidden = false;
    expect(cn("size-10 rounded-full", hidden && "hidden", { "opacity-50": true, invisible: hidden }, ["px-2", null], undefined, "size-9")).toBe(
      "rounded-full opacity-50 px-2 size-9",
    );
    expect(cn("p-4 px-2")).toBe("p-4 px-2");
    expect(cn("px-2 p-4")).toBe("p-4");
    expect(cn("text-sm text-primary leading-6 text-lg")).toBe("text-primary text-lg");
    expect(cn("")).toBe("");
  });
});
