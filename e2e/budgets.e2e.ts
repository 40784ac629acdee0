import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import type { Browser, BrowserContext, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { benchPages, demoTaskId, failingAudits, runLighthouse } from "../bench/lighthouse.js";
import { browserDebuggingPort, connectBrowser, DEMO, newPage, signIn, startServer, type RunningServer } from "./harness.js";

// Issue #8 and #17 budgets, on the built web app: the landing page's first load stays within
// LANDING_JS_BUDGET_BYTES of JavaScript and each other route's within its own budget, because
// pages are code-split and what no first paint uses (toasts, tooltips, zod, the bell and the live
// socket, forms and dialogs) loads on demand (docs/decisions/029-lighter-first-load.md and
// 041-forms-loaded-on-first-use.md); and Lighthouse scores accessibility and SEO 100 on the landing page, the job board, a task page
// and an information page. Performance scores
// are not asserted: on a shared 2-core box they move from run to run (bench/lighthouse.ts records
// them as medians). Bytes are what the server sends Chromium (the build's Brotli copies): the
// issue's "KB gzipped" figures were measured this way.

const ROOT = resolve(import.meta.dirname, "..");
const WEB_DIST = process.env.E2E_WEB_DIST ?? join(ROOT, "dist", "web");
// Issue 17's 90 KB (88.5 KB measured): React DOM, TanStack Query and the shell, with our own class
// merge and icon factory in one entry chunk (docs/decisions/042-landing-under-90-kb.md).
const LANDING_JS_BUDGET_BYTES = 90 * 1024;
// Issue 17 asks for 130 KB on every other route. Forms and dialogs load on first use (decision
// 041), and decision 042 took 6 to 17 KB more off each; the poster's page of a claimed, unpaid
// task (119.9 KB) is the heaviest. Each route keeps its own budget, its figure plus about 5% and no
// more than the issue's 130 KB, so that no page gets heavier; lower them as routes get lighter.
const ISSUE_ROUTE_TARGET_BYTES = 130 * 1024;

let server: RunningServer;
let browser: Browser;
let debuggingPort: number;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), connectBrowser()]);
  debuggingPort = browserDebuggingPort();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface ManifestChunk {
  file: string;
  src?: string;
  isDynamicEntry?: boolean;
}

/** Page module (app/routes/x.tsx) -> its chunk URL path, from the Vite build manifest. */
function pageChunks(): Map<string, string> {
  const manifest = JSON.parse(readFileSync(join(WEB_DIST, ".vite", "manifest.json"), "utf8")) as Record<string, ManifestChunk>;
  const chunks = new Map<string, string>();
  for (const file of readdirSync(join(ROOT, "src/web/app/routes")).filter((f) => f.endsWith(".tsx"))) {
    const chunk = manifest[`app/routes/${file}`];
    expect(chunk?.isDynamicEntry, `app/routes/${file} is not a lazily loaded chunk of its own`).toBe(true);
    if (chunk) chunks.set(file.replace(/\.tsx$/, ""), `/${chunk.file}`);
  }
  return chunks;
}

/** Bytes on the wire when the server compresses, else the body gzipped at level 9. */
async function gzippedBytes(response: Response): Promise<number> {
  if (response.headers()["content-encoding"]) return (await response.request().sizes()).responseBodySize;
  return gzipSync(await response.body(), { level: 9 }).length;
}

interface FirstLoad {
  paths: Set<string>;
  count: number;
  bytes: number;
}

/** Every script a fresh tab fetches to show `url` until the network is idle, with its bytes. */
async function firstLoad(context: BrowserContext, url: string, heading: string | RegExp): Promise<FirstLoad> {
  const page = await newPage(context);
  const scripts: Promise<{ path: string; bytes: number }>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() !== "script") return;
    scripts.push(gzippedBytes(response).then((bytes) => ({ path: new URL(response.url()).pathname, bytes })));
  });
  await page.goto(url);
  await page.getByRole("heading", { level: 1, name: heading }).waitFor();
  await page.waitForLoadState("networkidle");
  const loaded = await Promise.all(scripts);
  page.assertClean([/401 \(Unauthorized\)/]); // the signed-out visitor's current-user call
  await page.close();
  return { paths: new Set(loaded.map((s) => s.path)), count: loaded.length, bytes: loaded.reduce((sum, s) => sum + s.bytes, 0) };
}

/** A fresh context (an empty cache: every script is fetched again) signed in as `email`. */
async function signedInContext(email: string): Promise<BrowserContext> {
  const setup = await browser.newContext();
  await signIn(await newPage(setup), server.url, email, DEMO.password);
  const state = await setup.storageState();
  await setup.close();
  return browser.newContext({ storageState: state });
}

/** Has the demo provider claim an open demo task other than `except`, through the API the Claim button uses; returns its id. */
async function claimAnotherTask(except: string): Promise<string> {
  const open = (await (await fetch(`${server.url}/api/tasks/open`)).json()) as { id: string }[];
  const task = open.find((t) => t.id !== except);
  if (!task) throw new Error("no second open demo task");
  const context = await signedInContext(DEMO.provider);
  const res = await context.request.fetch(`${server.url}/api/tasks/${task.id}/claim`, { method: "PATCH", headers: { origin: server.url } });
  await context.close();
  if (!res.ok()) throw new Error(`claim answered ${res.status()}`);
  return task.id;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

describe("issue #8 and #17 budgets", () => {
  it(`landing first load: at most ${LANDING_JS_BUDGET_BYTES / 1024} KB of JavaScript, and no other page's chunk`, async () => {
    const chunks = pageChunks();
    expect(new Set(chunks.values()).size, "two pages share one chunk").toBe(chunks.size);

    // The server names the landing page's chunk in the HTML, so it is fetched beside the entry.
    const html = await (await fetch(`${server.url}/`)).text();
    expect(html).toContain(`<link rel="modulepreload" crossorigin href="${chunks.get("landing") ?? "landing chunk missing"}">`);

    const context = await browser.newContext();
    const load = await firstLoad(context, `${server.url}/`, /./);
    await context.close();

    console.log(`landing first load: ${load.count} scripts, ${kb(load.bytes)} (budget ${kb(LANDING_JS_BUDGET_BYTES)})`);
    expect(load.bytes).toBeLessThanOrEqual(LANDING_JS_BUDGET_BYTES);
    expect(load.paths.has(chunks.get("landing") ?? "landing chunk missing")).toBe(true);
    const otherPages = [...chunks].filter(([name, path]) => name !== "landing" && load.paths.has(path)).map(([name]) => name);
    expect(otherPages, "the landing page's first load fetched other pages' chunks").toEqual([]);
  });

  it("every other route's first load stays within its budget", async () => {
    const chunks = pageChunks();
    const taskId = await demoTaskId(server.url);
    // A task the provider has claimed: its poster's page brings the provider's card, the payment
    // panel and the chat, the heaviest state of a task page. The card form opens from a button and
    // the chat's form loads when its box is first used, so neither brings react-hook-form and zod
    // to the first load (168.7 KB before, 119.9 KB after; decision 042).
    const claimedId = await claimAnotherTask(taskId);
    // The heaviest pages of each kind: public with data, a task, a form-heavy signed-in page, admin.
    // The task page's budgets went to 150, 155 and 158 KB after issues 41 and 45 (148.1, 152.9,
    // 156.4 KB) and came back the same day: its statement's reader had brought zod (22.5 KB), and the
    // money words, the payment card's table and the reviews load on use (docs/benchmarks.md, "task
    // page first loads won back").
    const visits: { as: string | null; path: string; page: string; heading: string | RegExp; budgetKb: number }[] = [
      { as: null, path: "/job-board", page: "job-board", heading: "Job Board", budgetKb: 106 },
      { as: null, path: `/task/${taskId}`, page: "task-detail", heading: /./, budgetKb: 118 },
      { as: null, path: "/sign-in", page: "sign-in", heading: /./, budgetKb: 118 },
      { as: DEMO.poster, path: "/dashboard", page: "dashboard", heading: "My Dashboard", budgetKb: 109 },
      // 123 since 2026-11-29 (was 122): the task table every task page reads for its buttons gained the
      // five rows of requesting a provider (docs/benchmarks.md, "First loads after issue 30's requests").
      { as: DEMO.poster, path: `/task/${taskId}`, page: "task-detail", heading: /./, budgetKb: 123 },
      { as: DEMO.poster, path: `/task/${claimedId}`, page: "task-detail", heading: /./, budgetKb: 126 },
      { as: DEMO.poster, path: "/settings/profile", page: "settings", heading: "Settings", budgetKb: 106 },
      { as: DEMO.admin, path: "/admin", page: "admin", heading: "Admin Dashboard", budgetKb: 122 },
    ];
    const over: string[] = [];
    for (const visit of visits) {
      const context = visit.as ? await signedInContext(visit.as) : await browser.newContext();
      const load = await firstLoad(context, `${server.url}${visit.path}`, visit.heading);
      await context.close();
      const who = visit.as ? visit.as.split("@")[0] : "visitor";
      const gap = load.bytes > ISSUE_ROUTE_TARGET_BYTES ? `, ${kb(load.bytes - ISSUE_ROUTE_TARGET_BYTES)} over the issue's 130 KB` : "";
      console.log(`${visit.path} first load (${who}): ${load.count} scripts, ${kb(load.bytes)} (budget ${visit.budgetKb} KB${gap})`);
      // The page itself was measured, not a sign-in prompt in front of it.
      expect(load.paths.has(chunks.get(visit.page) ?? `${visit.page} chunk missing`), `${visit.path} did not load its page`).toBe(true);
      if (load.bytes > visit.budgetKb * 1024) over.push(`${visit.path} (${who}): ${kb(load.bytes)}`);
    }
    expect(over, over.join("\n")).toEqual([]);
    // Eight fresh contexts, five of them signed in: past the default 2 minutes on a busy shared machine.
  }, 300_000);

  // One Lighthouse run per page for both categories (they read the page, not the clock, so they hold
  // on a busy machine): accessibility was three runs here and SEO four in seo-head.e2e.ts.
  it("Lighthouse accessibility and SEO are 100 on the landing page, the job board, a task page and an information page", async () => {
    const failures: string[] = [];
    const pages = [...(await benchPages(server.url)), { name: "pricing", url: `${server.url}/pricing` }];
    for (const { name, url } of pages) {
      const lhr = await runLighthouse(url, debuggingPort, "mobile", ["accessibility", "seo"]);
      for (const category of ["accessibility", "seo"] as const) {
        const score = Math.round((lhr.categories[category]?.score ?? 0) * 100);
        console.log(`Lighthouse ${category} ${name}: ${score}`);
        if (score !== 100) failures.push(`${name} ${category} ${score}: ${failingAudits(lhr, category).join("; ")}`);
      }
    }
    expect(failures, failures.join("\n")).toEqual([]);
  });
});
