import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { lucideIcons } from "./scripts/vite-lucide-icons.js";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes `<file>.br` and `<file>.gz` beside every emitted script, style sheet and SVG, once at
 * build time at the highest levels, so the server sends them as they are (@fastify/static
 * `preCompressed`) instead of compressing each response or sending 3x the bytes (Lighthouse
 * "Enable text compression"). Tiny files are left alone: the headers would outweigh the gain.
 */
function precompress(): Plugin {
  return {
    name: "errandly:precompress",
    apply: "build",
    async writeBundle(options, bundle) {
      const dir = options.dir ?? "";
      const files = Object.values(bundle).filter((f) => /\.(js|css|svg)$/.test(f.fileName));
      await Promise.all(
        files.map(async (f) => {
          // The file as written (a chunk's `code` lacks the sourceMappingURL comment added on write).
          const path = join(dir, f.fileName);
          const source = await readFile(path);
          if (source.length < 1024) return;
          await writeFile(`${path}.br`, await brotli(source, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
          await writeFile(`${path}.gz`, await gzipAsync(source, { level: 9 }));
        }),
      );
    },
  };
}

const ROUTER = here("src/web/app/router.tsx");

/**
 * Writes `.vite/route-preloads.json`: for each route pattern of the router that everyone may open
 * (`<Route path=… component={…} />`, not wrapped in ProtectedRoute), its page chunk and the chunks
 * that page imports, less what index.html already loads. The server puts them in the page's HTML
 * as `<link rel="modulepreload">` (src/server/plugins/spa.ts), so the browser fetches the page's
 * code beside the entry instead of after it has run (issue 17, decision 029). Pages behind sign-in
 * are left out: the HTML is the same for everyone, and a visitor never loads their chunks.
 */
function routePreloads(): Plugin {
  return {
    name: "errandly:route-preloads",
    apply: "build",
    generateBundle(_options, bundle) {
      const source = readFileSync(ROUTER, "utf8");
      const pageFiles = new Map(
        [...source.matchAll(/const (\w+) = page\(\(\) => import\("(\.\/routes\/[\w-]+)"\)\)/g)].map((m) => [m[1], m[2]]),
      );
      const routes = [...source.matchAll(/<Route path="([^"]+)" component=\{(\w+)\} \/>/g)];
      if (pageFiles.size === 0 || routes.length === 0) this.error(`route-preloads: no pages or routes found in ${ROUTER}`);

      const chunks = Object.values(bundle).filter((c) => c.type === "chunk");
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) return this.error("route-preloads: no entry chunk");
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (start: string[]): Set<string> => {
        const seen = new Set<string>();
        const visit = (file: string) => {
          if (seen.has(file)) return;
          seen.add(file);
          for (const next of byFile.get(file)?.imports ?? []) visit(next);
        };
        start.forEach(visit);
        return seen;
      };
      const loadedByIndex = closure([entry.fileName]);

      const preloads: Record<string, string[]> = {};
      for (const [, pattern, component] of routes) {
        const file = pageFiles.get(component ?? "");
        if (!pattern || !file) return this.error(`route-preloads: ${component ?? "?"} is not a page(() => import(…)) of the router`);
        const moduleId = join(dirname(ROUTER), `${file}.tsx`);
        const chunk = chunks.find((c) => c.facadeModuleId === moduleId);
        if (!chunk) return this.error(`route-preloads: no chunk for ${moduleId}`);
        preloads[pattern] = [...closure([chunk.fileName])].filter((f) => !loadedByIndex.has(f)).map((f) => `/${f}`);
      }
      this.emitFile({ type: "asset", fileName: ".vite/route-preloads.json", source: JSON.stringify(preloads, null, 2) });
    },
  };
}

/**
 * Where `vite build --ssr entry-server.tsx` (package.json "build") puts the server renderer: beside
 * the web build it renders (a dot-folder, which the server never serves), so a web build and its
 * renderer always go together. scripts/prerender.mjs runs it once at build time, and the server
 * loads it at start (src/server/plugins/spa.ts; docs/decisions/036-server-rendered-data-pages.md).
 */
const SSR_OUT_DIR = "dist/web/.vite/ssr";

// The renderer gets no public files, preload table or compressed copies. Its packages are bundled
// into it (ssr.noExternal): the web's packages are build-time inputs (devDependencies), and a server
// installed without them still renders.
export default defineConfig(({ isSsrBuild }) => ({
  root: here("src/web"),
  publicDir: isSsrBuild ? false : here("src/web/public"),
  plugins: [lucideIcons(here("src/web/lib/lucide-icon.ts")), react(), tailwindcss(), ...(isSsrBuild ? [] : [routePreloads(), precompress()])],
  resolve: {
    alias: { "@": here("src/web"), "@shared": here("src/shared") },
  },
  ssr: { noExternal: true, target: "node" },
  // React's production build whatever NODE_ENV the server runs with: the development one renders
  // several times slower and warns per request.
  define: isSsrBuild ? { "process.env.NODE_ENV": JSON.stringify("production") } : {},
  build: {
    outDir: here(isSsrBuild ? SSR_OUT_DIR : "dist/web"),
    emptyOutDir: true,
    sourcemap: true,
    // .vite/manifest.json maps each page module to its chunk: e2e/budgets.e2e.ts checks from it that
    // pages are code-split. The server never serves dot-folders.
    manifest: !isSsrBuild,
    // Every module the entry imports statically goes into one chunk with it. Rolldown had split
    // them into seven chunks that imported each other's exports by name: about 3.5 KB more on every
    // first load (docs/decisions/042-landing-under-90-kb.md). Page chunks import from it.
    rolldownOptions: isSsrBuild ? {} : { output: { codeSplitting: { groups: [{ name: "app", tags: ["$initial"] }] } } },
  },
  server: {
    proxy: {
      "/api": "http://localhost:3000",
      "/ws": { target: "ws://localhost:3000", ws: true },
    },
  },
}));
