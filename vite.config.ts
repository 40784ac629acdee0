import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

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

export default defineConfig({
  root: here("src/web"),
  publicDir: here("src/web/public"),
  plugins: [react(), tailwindcss(), precompress()],
  resolve: {
    alias: { "@": here("src/web"), "@shared": here("src/shared") },
  },
  build: {
    outDir: here("dist/web"),
    emptyOutDir: true,
    sourcemap: true,
    // .vite/manifest.json maps each page module to its chunk: e2e/budgets.e2e.ts checks from it that
    // pages are code-split. The server never serves dot-folders.
    manifest: true,
  },
  server: {
    proxy: {
      "/api": "http://localhost:3000",
      "/ws": { target: "ws://localhost:3000", ws: true },
    },
  },
});
