import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import lighthouse, { desktopConfig, type Result } from "lighthouse";
import type { Browser } from "playwright-core";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { launchBrowser } from "../e2e/harness.js";
import { freePort } from "../src/server/free-port.js";
import { startAppServer, warnIfStale } from "./app-server.js";
import { benchArgs } from "./args.js";

// Lighthouse benchmark (docs/benchmarks.md, "Front end (bench:lighthouse)"): the built server as
// `npm start` runs it (production mode, its embedded PostgreSQL in a fresh DATA_DIR) with the demo
// data, serving the built web app (dist/web, or the build E2E_WEB_DIST names), Lighthouse in
// Chromium on the landing page, the job board and a demo task page, mobile (default: simulated
// slow 4G and 4x CPU) and desktop presets, the median of N runs per page and preset. Performance moves from run to run on a shared box, so the table holds
// medians and the budgets test (e2e/budgets.e2e.ts) enforces only what load does not change
// (JavaScript bytes, accessibility).
//
//   npm run bench:lighthouse
//   npm run bench:lighthouse -- --runs=3 --presets=mobile,desktop --pages=landing,jobs,task   the defaults

export type Preset = "mobile" | "desktop";
type Category = "performance" | "accessibility" | "best-practices" | "seo";

/** The harness's Chromium with a DevTools port Lighthouse connects to (it opens its own tab). */
export async function launchDebuggableChromium(): Promise<{ browser: Browser; port: number }> {
  const port = await freePort();
  const browser = await launchBrowser([`--remote-debugging-port=${port}`]);
  return { browser, port };
}

/**
 * One Lighthouse navigation run. Without the performance category nothing is timed, so the run
 * skips the about:blank step (the budgets test runs accessibility alone). Throttling stays
 * simulated: "provided" makes Lighthouse wait 11 s longer for the page to settle.
 * A run that Lighthouse itself aborts (NO_FCP when the shared box starves Chromium) is retried
 * twice; a page that still cannot be measured throws, so a broken page is never scored.
 */
export async function runLighthouse(url: string, port: number, preset: Preset, onlyCategories?: Category[]): Promise<Result> {
  const timed = !onlyCategories || onlyCategories.includes("performance");
  const flags = {
    port,
    output: "json" as const,
    logLevel: "error" as const,
    disableFullPageScreenshot: true,
    ...(onlyCategories ? { onlyCategories } : {}),
    ...(timed ? {} : { skipAboutBlank: true }),
  };
  let failure = "";
  for (let attempt = 1; attempt <= 3; attempt++) {
    const runner = await lighthouse(url, flags, preset === "desktop" ? desktopConfig : undefined);
    if (runner && !runner.lhr.runtimeError) return runner.lhr;
    failure = runner?.lhr.runtimeError ? `${runner.lhr.runtimeError.code} ${runner.lhr.runtimeError.message}` : "no result";
    process.stderr.write(`Lighthouse attempt ${attempt} on ${url} failed: ${failure}\n`);
  }
  throw new Error(`Lighthouse failed on ${url}: ${failure}`);
}

/**
 * Audits of a category that did not pass (for the table's notes and the test's messages). The
 * metrics are in the table already, the hidden group holds more metrics and the 12.x insights
 * that repeat the classic audits, and bf-cache only says headless Chromium turns that cache off.
 */
export function failingAudits(lhr: Result, category: Category): string[] {
  const refs = (lhr.categories[category]?.auditRefs ?? []).filter(
    (ref) => ref.group !== "metrics" && ref.group !== "hidden" && ref.id !== "bf-cache",
  );
  return refs
    .map((ref) => lhr.audits[ref.id])
    .filter((a): a is NonNullable<typeof a> => a !== undefined && a.score !== null && a.score < 1 && a.scoreDisplayMode !== "informative")
    .map((a) => `${a.id}: ${a.title}${a.displayValue ? ` (${a.displayValue})` : ""}`);
}

interface RunFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  jsBytes: number;
}

function score(lhr: Result, category: Category): number {
  return Math.round((lhr.categories[category]?.score ?? 0) * 100);
}

function metric(lhr: Result, id: string): number {
  const value = lhr.audits[id]?.numericValue;
  if (value === undefined) throw new Error(`audit ${id} has no value`);
  return value;
}

/** Bytes of script over the wire, from Lighthouse's own resource summary. */
function scriptBytes(lhr: Result): number {
  const details = lhr.audits["resource-summary"]?.details;
  if (details?.type !== "table") return 0;
  const row = details.items.find((item) => item.resourceType === "script");
  return typeof row?.transferSize === "number" ? row.transferSize : 0;
}

function figures(lhr: Result): RunFigures {
  return {
    performance: score(lhr, "performance"),
    accessibility: score(lhr, "accessibility"),
    bestPractices: score(lhr, "best-practices"),
    seo: score(lhr, "seo"),
    lcpMs: metric(lhr, "largest-contentful-paint"),
    tbtMs: metric(lhr, "total-blocking-time"),
    cls: metric(lhr, "cumulative-layout-shift"),
    jsBytes: scriptBytes(lhr),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Per-metric median over the runs (each column is the middle of its own values). */
function medianFigures(runs: RunFigures[]): RunFigures {
  const of = (key: keyof RunFigures) => median(runs.map((r) => r[key]));
  return {
    performance: of("performance"),
    accessibility: of("accessibility"),
    bestPractices: of("bestPractices"),
    seo: of("seo"),
    lcpMs: of("lcpMs"),
    tbtMs: of("tbtMs"),
    cls: of("cls"),
    jsBytes: of("jsBytes"),
  };
}

/** The id of the first open demo task, for the task page. */
export async function demoTaskId(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/tasks/open`);
  if (!res.ok) throw new Error(`GET /api/tasks/open answered ${res.status}`);
  const [first] = (await res.json()) as { id: string }[];
  if (!first) throw new Error("no open demo task: was the server started with SEED_DEMO?");
  return first.id;
}

/** The three pages of issue #8: landing, job board (path /job-board) and a task page. */
export async function benchPages(baseUrl: string): Promise<{ name: string; url: string }[]> {
  return [
    { name: "landing", url: `${baseUrl}/` },
    { name: "jobs", url: `${baseUrl}/job-board` },
    { name: "task", url: `${baseUrl}/task/${await demoTaskId(baseUrl)}` },
  ];
}

function arg(name: string, fallback: string): string {
  return benchArgs().get(name) ?? fallback;
}

async function main(): Promise<void> {
  const runs = Number(arg("runs", "3"));
  const presets = arg("presets", "mobile,desktop").split(",") as Preset[];
  const pageNames = arg("pages", "landing,jobs,task").split(",");
  const started = performance.now();
  const entry = resolve(import.meta.dirname, "../dist/server/server/main.js");
  warnIfStale(entry);
  const dataDir = mkdtempSync(join(tmpdir(), "errandly-lighthouse-"));
  const server = await startAppServer({
    entry,
    dataDir,
    // Demo data only outside production (decision 066); the built web app is the same either way.
    env: { NODE_ENV: "test", SEED_DEMO: "true", ...(process.env.E2E_WEB_DIST ? { WEB_DIST_DIR: process.env.E2E_WEB_DIST } : {}) },
  });
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const { browser, port } = await launchDebuggableChromium();
  const rows: string[] = [];
  const notes = new Map<string, Set<string>>();
  try {
    const pages = (await benchPages(baseUrl)).filter((p) => pageNames.includes(p.name));
    for (const preset of presets) {
      for (const page of pages) {
        const results: RunFigures[] = [];
        for (let i = 0; i < runs; i++) {
          const lhr = await runLighthouse(page.url, port, preset);
          results.push(figures(lhr));
          for (const category of ["accessibility", "best-practices", "seo", "performance"] as const) {
            for (const audit of failingAudits(lhr, category)) {
              const key = `${page.name} (${preset}) ${category}`;
              notes.set(key, (notes.get(key) ?? new Set()).add(audit.replace(/ \(.*\)$/, "")));
            }
          }
          process.stderr.write(`${page.name} ${preset} run ${i + 1}/${runs}: performance ${results.at(-1)?.performance}\n`);
        }
        const m = medianFigures(results);
        rows.push(
          `| ${page.name} | ${preset} | ${m.performance} | ${m.accessibility} | ${m.bestPractices} | ${m.seo} | ` +
            `${(m.lcpMs / 1000).toFixed(2)} s | ${Math.round(m.tbtMs)} ms | ${m.cls.toFixed(3)} | ${(m.jsBytes / 1024).toFixed(1)} |`,
        );
      }
    }
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`\nLighthouse ${runs}x per page and preset (median of each column), ${new Date().toISOString()}\n`);
  console.log("| Page | Preset | Performance | Accessibility | Best practices | SEO | LCP | TBT | CLS | JS transferred (KB) |");
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const row of rows) console.log(row);
  if (notes.size > 0) {
    console.log("\nAudits that did not pass in at least one run:");
    for (const [key, audits] of notes) console.log(`- ${key}: ${[...audits].join("; ")}`);
  }
  console.log(`\nTotal time ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

// Imported by e2e/budgets.e2e.ts for the helpers above; runs only as `tsx bench/lighthouse.ts`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
