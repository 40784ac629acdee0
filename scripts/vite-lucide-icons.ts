import type { Plugin } from "vite";

const ICON_MODULE = /[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/;

/**
 * Draws lucide-react's icons with src/web/lib/lucide-icon.ts (`factory`): each icon module's import
 * of lucide's factory (`../createLucideIcon.mjs`) resolves to ours, in the client and the server
 * build alike so that hydration sees the same markup (docs/decisions/042-landing-under-90-kb.md,
 * docs/decisions/046-libraries-written-by-hand.md). vite-lucide-icons.test.ts runs it on every
 * icon module of the installed lucide-react.
 */
export function lucideIcons(factory: string): Plugin {
  return {
    name: "errandly:lucide-icons",
    enforce: "pre",
    resolveId(source, importer) {
      return source === "../createLucideIcon.mjs" && importer && ICON_MODULE.test(importer) ? factory : null;
    },
    // Our factory passes an icon's shapes as separate children, so React needs no keys for them:
    // lucide's random six-letter keys were about 0.5 KB of every first load that gzip cannot shrink.
    // A key on a line of its own leaves that line empty: no line moves, so the module's source map
    // stays right (`map: null`).
    transform(code, id) {
      return ICON_MODULE.test(id) ? { code: code.replace(/,(\s*)key: "[^"]*"/g, (_, space: string) => space.replace(/[^\n]/g, "")), map: null } : null;
    },
  };
}
