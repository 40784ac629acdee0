import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { lucideIcons } from "./scripts/vite-lucide-icons.js";
import { routeTable } from "./scripts/vite-route-table.js";

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
  plugins: [
    lucideIcons(here("src/web/lib/lucide-icon.ts")),
    routeTable({ routePages: here("src/web/app/route-pages.ts"), pagesDir: here("src/web/app/routes") }),
    react(),
    tailwindcss(),
    ...(isSsrBuild ? [] : [precompress()]),
  ],
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
    //
    // Chunks are named by their hash alone: each page loader carries the file names of the chunks it
    // needs (Vite's preload list), so "landing-", "dist-"… were about 0.8 KB Brotli of the entry alone
    // (the landing page's first load 90.2 KB against its 90 KB budget). Source maps and
    // .vite/manifest.json still say which module is which.
    rolldownOptions: isSsrBuild
      ? {}
      : { output: { chunkFileNames: "assets/[hash].js", codeSplitting: { groups: [{ name: "app", tags: ["$initial"] }] } } },
  },
  server: {
    proxy: {
      "/api": "http://localhost:3000",
      "/ws": { target: "ws://localhost:3000", ws: true },
    },
  },
}));
