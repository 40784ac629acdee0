import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lucideIcons } from "./vite-lucide-icons.js";

// The build's rewrite of lucide-react's private files (docs/decisions/046-libraries-written-by-hand.md):
// run on every icon module of the installed lucide-react, so an upgrade that renames the factory
// file or changes how an icon lists its shapes fails here instead of shipping lucide's factory again
// or icons that lost a shape.

const ICONS = join(createRequire(import.meta.url).resolve("lucide-react"), "../../esm/icons");
const FACTORY = "/app/src/web/lib/lucide-icon.ts";
const plugin = lucideIcons(FACTORY);
const resolveId = plugin.resolveId as (source: string, importer: string | undefined) => string | null;
const transform = plugin.transform as (code: string, id: string) => { code: string; map: null } | null;

const files = readdirSync(ICONS)
  .filter((file) => file.endsWith(".mjs"))
  .map((file) => ({ id: join(ICONS, file), code: readFileSync(join(ICONS, file), "utf8") }));
/** The modules that draw an icon; the others re-export one under an old name, or all of them (index.mjs). */
const modules = files.filter(({ code }) => code.includes("const __iconData = "));

type Shape = [tag: string, attributes: Record<string, string>];

/** An icon module's `__iconData.node`, read from its source (an object literal of strings). */
function shapes(code: string): Shape[] {
  const literal = /const __iconData = (\{[\s\S]*?\n\});/.exec(code)?.[1] ?? "{}";
  return (new Function(`return ${literal};`) as () => { node?: Shape[] })().node ?? [];
}
const withoutKeys = (node: Shape[]) => node.map(([tag, { key: _key, ...attributes }]) => [tag, attributes]);

describe("the lucide icons rewrite", () => {
  it("finds every icon module of lucide-react, each drawing an icon or naming one that does", () => {
    expect(modules.length).toBeGreaterThan(1000);
    expect(files.length - modules.length).toBeLessThan(modules.length);
  });

  it("points each icon module's factory import at ours, and nothing else", () => {
    for (const { id, code } of modules) {
      expect(code, id).toContain("import createLucideIcon from '../createLucideIcon.mjs';");
      expect(resolveId("../createLucideIcon.mjs", id)).toBe(FACTORY);
    }
    expect(resolveId("../createLucideIcon.mjs", join(ICONS, "../lucide-react.mjs"))).toBeNull();
    expect(resolveId("../createLucideIcon.mjs", undefined)).toBeNull();
    expect(resolveId("./icon.mjs", modules[0]?.id)).toBeNull();
  });

  it("drops every shape's key, on its line or its own, and keeps every shape, line for line", () => {
    for (const { id, code } of modules) {
      const out = transform(code, id)?.code ?? "";
      expect(shapes(code).length, id).toBeGreaterThan(0);
      expect(shapes(code).every(([, attributes]) => typeof attributes.key === "string"), id).toBe(true);
      expect(out, id).not.toMatch(/\bkey:/);
      expect(shapes(out), id).toEqual(withoutKeys(shapes(code)));
      expect(out.split("\n").length, id).toBe(code.split("\n").length);
    }
    expect(transform('["path", { d: "M0", key: "x" }]', "/app/src/web/x.ts")).toBeNull();
  });
});
