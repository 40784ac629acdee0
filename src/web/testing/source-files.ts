/// <reference types="node" />
// (Reads the source tree with node:fs; the web program has no Node types otherwise.)
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";

/** The web app's own source folder, src/web. */
export const WEB_SOURCE = resolve(import.meta.dirname, "..");

/** Every .ts and .tsx file of the app under `dir`, tests left out: what the tests of lib/cn.ts and lib/lucide-icon.ts read. */
export function sourceFiles(dir = WEB_SOURCE): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}
