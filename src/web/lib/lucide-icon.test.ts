/// <reference types="node" />
// (These tests read the source tree with node:fs; the web program has no Node types otherwise.)
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { createElement, type ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "@/testing/source-files";
import createLucideIcon from "./lucide-icon";

// The build draws lucide's icons with lib/lucide-icon.ts (docs/decisions/042-landing-under-90-kb.md).
// Tests import lucide-react unchanged, so each icon the app imports is rendered by both and the
// markup compared, with the props the app passes icons.

const LUCIDE = join(createRequire(import.meta.url).resolve("lucide-react"), "../../esm");

/** Every icon name imported from lucide-react anywhere in src/web. */
const iconNames = [
  ...new Set(
    sourceFiles().flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/import \{([^}]*)\} from "lucide-react"/g)].flatMap((match) =>
        (match[1] ?? "").split(",").map((name) => name.trim().split(" as ")[0] ?? "").filter((name) => name && !name.startsWith("type ")),
      ),
    ),
  ),
].sort();

/** lucide-react's index: which icon module each exported name comes from. */
const iconFiles = new Map(
  [...readFileSync(join(LUCIDE, "lucide-react.mjs"), "utf8").matchAll(/export \{([^}]*)\} from '\.\/(icons\/[\w-]+\.mjs)'/g)].flatMap((match) =>
    (match[1] ?? "").split(",").map((part) => [part.trim().replace(/^default as /, ""), match[2] ?? ""] as const),
  ),
);

const propSets: Record<string, unknown>[] = [
  {},
  { className: "size-4 shrink-0" },
  { className: "size-3.5", strokeWidth: 3, "aria-hidden": "true" },
  { "aria-label": "Verified", role: "img" },
  { size: 18, color: "red", absoluteStrokeWidth: true },
];

describe("lucide icons drawn by lib/lucide-icon.ts", () => {
  it("finds the app's icons", () => {
    expect(iconNames.length).toBeGreaterThan(40);
    expect(iconNames).toContain("CircleCheck");
  });

  it("renders every icon the app imports exactly as lucide-react does", async () => {
    const lucide = (await import("lucide-react")) as unknown as Record<string, ComponentType<Record<string, unknown>>>;
    for (const name of iconNames) {
      const file = iconFiles.get(name);
      const original = lucide[name];
      expect(file && original, `${name} is not a lucide-react icon`).toBeTruthy();
      const module = (await import(join(LUCIDE, file ?? ""))) as { __iconData: Parameters<typeof createLucideIcon>[0] };
      const ours = createLucideIcon(module.__iconData);
      for (const props of propSets) {
        expect(renderToStaticMarkup(createElement(ours, props)), `${name} ${JSON.stringify(props)}`).toBe(
          renderToStaticMarkup(createElement(original as ComponentType<Record<string, unknown>>, props)),
        );
      }
      expect(renderToStaticMarkup(createElement(ours, {}, "Label"))).toBe(renderToStaticMarkup(createElement(original as ComponentType, {}, "Label")));
    }
  });
});
