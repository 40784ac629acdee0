import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

// The browser journeys run the built app (dist/), as `npm start` does. `npm test` builds it in the
// stage before; a person running one journey (`npx vitest run e2e/x.e2e.ts`) after editing the
// source gets a fresh build here instead of a silently stale one.

const ROOT = resolve(import.meta.dirname, "..");
/** What `npm run build` reads: the source, and the build's own configuration and scripts. */
const INPUTS = ["src", "vite.config.ts", "tsconfig.server.json", "tsconfig.base.json", "scripts/prerender.mjs", "scripts/vite-lucide-icons.ts", "scripts/vite-route-table.ts", "package-lock.json"];
/** What it writes last of each half: the server's entry and the web app's prerendered pages. */
const OUTPUTS = ["dist/server/server/main.js", "dist/web/.vite/prerendered.json"];

function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) {
    // Tests are not built; editing one must not cost a build.
    if (/\.test\.tsx?$/.test(entry)) continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

/** Runs `npm run build` when an output is missing or older than any input; returns whether it built. */
export function buildIfStale(): boolean {
  if (process.env.E2E_WEB_DIST) return false; // someone else's build, chosen on purpose
  const outputs = OUTPUTS.map((p) => join(ROOT, p));
  const built = outputs.every((p) => existsSync(p)) ? Math.min(...outputs.map((p) => statSync(p).mtimeMs)) : 0;
  const source = Math.max(...INPUTS.map((p) => join(ROOT, p)).filter((p) => existsSync(p)).map(newest));
  if (built > source) return false;
  console.log(built === 0 ? "e2e: no build in dist/, building (npm run build)" : "e2e: dist/ is older than the source, building again (npm run build)");
  // Without vitest's NODE_ENV=test, which would build React's development JSX runtime into the
  // server renderer and fail the prerendering step.
  const { NODE_ENV: _test, ...env } = process.env;
  execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit", env });
  return true;
}
