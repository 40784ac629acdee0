import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";

// What a route's first load is made of (docs/benchmarks.md, "Front end", issue 17): the built
// entry chunk, every chunk it imports statically, and the route's own chunk with its static
// imports, each broken down by the source module its bytes came from (read from the build's
// source maps). Gzipped figures per module are the chunk's gzipped size shared out by raw bytes:
// gzip works across module boundaries, so a module gzipped on its own would overstate it.
//
//   npx vite build && npx tsx bench/bundle-profile.ts [app/routes/landing.tsx] [--top=40]

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const ROOT = resolve(import.meta.dirname, "..");
const WEB_DIST = process.env.E2E_WEB_DIST ?? join(ROOT, "dist", "web");

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Decodes one source map `mappings` line into [generated column, source index] pairs (VLQ, spec v3). */
function decodeLine(line: string, state: { source: number }): [number, number][] {
  const segments: [number, number][] = [];
  let column = 0;
  for (const segment of line.split(",")) {
    if (!segment) continue;
    const fields: number[] = [];
    let value = 0;
    let shift = 0;
    for (const char of segment) {
      const digit = BASE64.indexOf(char);
      value += (digit & 31) << shift;
      if (digit & 32) shift += 5;
      else {
        fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
        value = 0;
        shift = 0;
      }
    }
    column += fields[0] ?? 0;
    if (fields.length >= 4) state.source += fields[1] ?? 0;
    segments.push([column, fields.length >= 4 ? state.source : -1]);
  }
  return segments;
}

/** Raw bytes of one built file by the module (package or source path) they came from. */
function bytesByModule(file: string): Map<string, number> {
  const code = readFileSync(join(WEB_DIST, file), "utf8");
  // Rolldown writes its own runtime helpers (rolldown-runtime-*.js) as a chunk without a map.
  if (!existsSync(join(WEB_DIST, `${file}.map`))) return new Map([["[no source map]", Buffer.byteLength(code)]]);
  const map = JSON.parse(readFileSync(join(WEB_DIST, `${file}.map`), "utf8")) as { sources: string[]; mappings: string };
  const result = new Map<string, number>();
  const add = (name: string, bytes: number) => result.set(name, (result.get(name) ?? 0) + bytes);
  const lines = code.split("\n");
  const state = { source: 0 };
  map.mappings.split(";").forEach((mapped, index) => {
    const text = lines[index] ?? "";
    const segments = decodeLine(mapped, state);
    if (segments.length === 0) return add("[unmapped]", Buffer.byteLength(text) + 1);
    const first = segments[0]?.[0] ?? 0;
    add("[unmapped]", Buffer.byteLength(text.slice(0, first)) + 1);
    segments.forEach(([column, source], i) => {
      const end = segments[i + 1]?.[0] ?? text.length;
      add(source < 0 ? "[unmapped]" : moduleName(map.sources[source] ?? "?"), Buffer.byteLength(text.slice(column, end)));
    });
  });
  return result;
}

/** A package's files count as the package; our own files keep their path under src/. */
function moduleName(source: string): string {
  const inModules = source.split("node_modules/").pop() ?? source;
  if (inModules !== source) {
    const parts = inModules.split("/");
    return parts[0]?.startsWith("@") ? `${parts[0]}/${parts[1] ?? ""}` : (parts[0] ?? source);
  }
  return source.replace(/^(\.\.\/)+/, "").replace(/^src\/web\//, "");
}

function staticClosure(manifest: Manifest, keys: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key]?.imports ?? []) visit(next);
  };
  keys.forEach(visit);
  return [...seen];
}

const args = process.argv.slice(2);
const top = Number(args.find((a) => a.startsWith("--top="))?.slice(6) ?? 40);
const route = args.find((a) => !a.startsWith("--")) ?? "app/routes/landing.tsx";
const manifest = JSON.parse(readFileSync(join(WEB_DIST, ".vite", "manifest.json"), "utf8")) as Manifest;
const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
if (!entry) throw new Error("no entry in the Vite manifest: build first");
if (!manifest[route]) throw new Error(`${route} is not in the Vite manifest`);

const modules = new Map<string, { raw: number; gzip: number }>();
let totalGzip = 0;
/** What the server sends a browser that accepts Brotli: the build's .br copy, or the file when it has none. */
let totalWire = 0;
console.log(`first load of ${route}:`);
for (const key of staticClosure(manifest, [entry, route])) {
  const file = manifest[key]?.file;
  if (!file?.endsWith(".js")) continue;
  const gzip = gzipSync(readFileSync(join(WEB_DIST, file)), { level: 9 }).length;
  totalGzip += gzip;
  const br = join(WEB_DIST, `${file}.br`);
  totalWire += readFileSync(existsSync(br) ? br : join(WEB_DIST, file)).length;
  const byModule = bytesByModule(file);
  const raw = [...byModule.values()].reduce((a, b) => a + b, 0);
  console.log(`  ${file.padEnd(44)} ${(gzip / 1024).toFixed(1).padStart(6)} KB gzipped`);
  for (const [name, bytes] of byModule) {
    const entry = modules.get(name) ?? { raw: 0, gzip: 0 };
    entry.raw += bytes;
    entry.gzip += (gzip * bytes) / raw;
    modules.set(name, entry);
  }
}
console.log(`total ${(totalGzip / 1024).toFixed(1)} KB gzipped, ${(totalWire / 1024).toFixed(1)} KB on the wire (Brotli)\n\nmodule                                              raw KB  gzip KB`);
for (const [name, { raw, gzip }] of [...modules].sort((a, b) => b[1].gzip - a[1].gzip).slice(0, top)) {
  console.log(`${name.padEnd(50)} ${(raw / 1024).toFixed(1).padStart(7)} ${(gzip / 1024).toFixed(1).padStart(8)}`);
}
