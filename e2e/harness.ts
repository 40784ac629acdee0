import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createRequire } from "node:module";
import pg from "pg";
import { generateSync } from "otplib";
import { chromium, request, type APIRequestContext, type Browser, type BrowserContext, type BrowserContextOptions, type Cookie, type Download, type Page } from "playwright-core";
import { afterAll, beforeAll, inject } from "vitest";
import { openDatabase } from "../src/server/db/client.js";
import { users } from "../src/server/db/schema/users.js";
import { hashPassword } from "../src/server/features/auth/passwords.js";
import { freePort } from "../src/server/free-port.js";
import type { CreateTaskBody } from "../src/shared/tasks.js";
import { DEMO_ADMIN_TOTP_SECRET } from "../src/server/seed/demo.js";
import { freshDatabase } from "../test/postgres-cluster.js";
import { insertApprovedProfile } from "../test/fixtures/approved-provider.js";
import { GOOD_CARD } from "../test/fixtures/cards.js";
import { tinyPng } from "../test/fixtures/test-files.js";

// Browser journeys run the built server (dist/, what `npm start` runs, and the built web app from
// dist/web or E2E_WEB_DIST) on a free port with a fresh data directory, on its own copy of the
// run's template database (migrated, with the demo data: global-setup.ts), and drive the run's one
// Chromium (global-setup.ts) with playwright-core, a fresh browser context per person.

const ROOT = resolve(import.meta.dirname, "..");
const BUILT_ENTRY = join(ROOT, "dist/server/server/main.js");

export interface RunningServer {
  url: string;
  /** The server's own database, for a journey that must move a deadline instead of waiting for it. */
  databaseUrl: string;
  dataDir: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Where a server's database comes from: the run's PostgreSQL server, its seeded template, and the key its secrets were sealed under. */
interface ServerSource {
  databaseServer: string;
  template: string;
  secretsKey: string;
}

/**
 * The built server on a copy of the run's seeded template database, with the secrets key the
 * template's demo admin's authenticator key was sealed under. Inside a journey the source is the
 * run's (global-setup.ts, through inject); global-setup.ts passes it for the shared server.
 */
export async function startServer(env: Record<string, string> = {}, source?: ServerSource): Promise<RunningServer> {
  const { databaseServer, template, secretsKey } = source ?? { databaseServer: inject("e2eDatabaseServer"), template: inject("e2eTemplate"), secretsKey: inject("e2eSecretsKey") };
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "errandly-e2e-"));
  const url = `http://localhost:${port}`;
  const webDist = process.env.E2E_WEB_DIST ?? join(ROOT, "dist", "web");
  if (!existsSync(join(webDist, "index.html"))) throw new Error(`No web build at ${webDist}: run \`npm run build\` first`);
  if (!existsSync(BUILT_ENTRY)) throw new Error(`${BUILT_ENTRY} is missing: run \`npm run build\` first`);
  const databaseUrl = (await freshDatabase(databaseServer, template)).url;
  const child = spawn(process.execPath, [BUILT_ENTRY], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "test",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      WEB_DIST_DIR: webDist,
      LOG_LEVEL: "warn",
      SEED_DEMO: "true",
      DATABASE_URL: databaseUrl,
      STORAGE_DIR: join(dataDir, "objects"),
      SECRETS_KEY: secretsKey,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  // The built server starts in about 4 s on a quiet machine; a shared one with other runs on it has
  // taken over a minute (load average above 20).
  const deadline = Date.now() + 100_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    const up = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false);
    if (up) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not start within 100 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    databaseUrl,
    dataDir,
    process: child,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The whole browser, for what the journeys' headless shell lacks (push, notifications) or measures
 * differently (Lighthouse's benchmark); undefined: playwright-core's download, `channel: "chromium"`.
 */
export function chromiumPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync("/usr/bin/chromium")) return "/usr/bin/chromium";
  return undefined; // playwright-core's own download (scripts/provision.mjs installs it)
}

const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";

/**
 * The journeys' Chromium: the headless shell (Debian's chromium-headless-shell), the same engine
 * without the browser's own interface, which ran the browser suite in 0.80 of the time of the whole
 * browser (decision 084). playwright-core's own download runs its headless shell by itself.
 */
export function journeyChromiumPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync(HEADLESS_SHELL)) return HEADLESS_SHELL;
  return chromiumPath();
}

/** The flags this machine needs (no sandbox as root, no GPU, nothing fetched in the background). */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
];

/** A headless Chromium of its own; `extraArgs` for callers such as Lighthouse. Journeys use `connectBrowser`. */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const executablePath = chromiumPath();
  return chromium.launch({ ...(executablePath ? { executablePath } : { channel: "chromium" }), headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/**
 * The e2e run's one Chromium (global-setup.ts), so no file pays 1.4-2.4 s to launch its own. Each
 * journey works in fresh contexts of it; `close()` only disconnects (and closes this file's contexts).
 */
export async function connectBrowser(): Promise<Browser> {
  return chromium.connect(inject("e2eBrowser").wsEndpoint);
}

/** The run's Chromium's DevTools port, where Lighthouse opens a tab of its own (bench/lighthouse.ts runLighthouse). */
export function browserDebuggingPort(): number {
  return inject("e2eBrowser").debuggingPort;
}

/** The default tile server (MAP_TILE_URL's default). */
export const TILE_HOST = /^https:\/\/tile\.openstreetmap\.org\//;
/** A 1x1 transparent PNG. */
const BLANK_TILE = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");

/**
 * A page that records uncaught errors, console errors and CSP violations; `assertClean()` fails
 * the test if any happened (failed network calls the test expects are filtered by `allow`).
 */
export async function newPage(context: BrowserContext): Promise<Page & { problems: string[]; assertClean(allow?: RegExp[]): void }> {
  const page = (await context.newPage()) as Page & { problems: string[]; assertClean(allow?: RegExp[]): void };
  // Map tiles never come from the network in tests: a blank tile (decision 031). A test of the
  // "tiles unavailable" path routes them to fail on its page, which takes precedence.
  await page.route(TILE_HOST, (route) => route.fulfill({ status: 200, contentType: "image/png", body: BLANK_TILE }));
  // A page whose HTML the server rendered (docs/decisions/033-prerendered-public-pages.md and
  // 036-server-rendered-data-pages.md) shows its buttons before its script has run, and they do
  // nothing until React has adopted them. A journey acts like someone who waits for the page to
  // work: every navigation waits until the page's heading belongs to React (pages rendered in the
  // browser pass at once).
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args) => {
    const response = await goto(...args);
    await untilHydrated(page);
    return response;
  };
  page.reload = async (...args) => {
    const response = await reload(...args);
    await untilHydrated(page);
    return response;
  };
  page.problems = [];
  page.on("pageerror", (err) => page.problems.push(`pageerror: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error") page.problems.push(`console: ${msg.text()}`);
  });
  page.assertClean = (allow: RegExp[] = []) => {
    const left = page.problems.filter((p) => !allow.some((a) => a.test(p)));
    if (left.length > 0) throw new Error(`Browser problems:\n${left.join("\n")}`);
  };
  return page;
}

/**
 * Until the page's server-rendered heading, if it has one, is React's (React marks the elements it
 * adopts), or at once where scripts do not run. Polled from here: a page without scripts runs no
 * waitForFunction.
 */
async function untilHydrated(page: Page): Promise<void> {
  const ready = () =>
    page
      .evaluate(() => {
        // With scripting off, <noscript> is parsed as markup: nothing will ever adopt the page.
        const probe = document.createElement("div");
        probe.innerHTML = "<noscript><i></i></noscript>";
        if (probe.querySelector("noscript i")) return true;
        const heading = document.querySelector("#root main h1");
        return !heading || Object.keys(heading).some((key) => key.startsWith("__reactFiber$"));
      })
      // The page moved on by itself meanwhile (a protected page sending a visitor to sign in):
      // ask the new document.
      .catch((error: unknown) => {
        if (error instanceof Error && /Execution context was destroyed|navigat/i.test(error.message)) return false;
        throw error;
      });
  // A loop rather than expect.poll, which only runs inside a test (journeys sign in in beforeAll).
  const deadline = Date.now() + 30_000;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`${page.url()}: the server-rendered page was not hydrated within 30 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** Records every layout shift not caused by input, from the first paint; the returned function sums them. */
export async function watchLayoutShifts(page: Page): Promise<() => Promise<number>> {
  await page.addInitScript(() => {
    const shifts: number[] = [];
    Object.assign(window, { shifts });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) shifts.push(entry.value);
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
  return () => page.evaluate(() => (window as unknown as { shifts: number[] }).shifts.reduce((a, b) => a + b, 0));
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; html: string }[];
}

/** axe-core injected through the DevTools protocol (CSP stays on); serious and critical only. */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  // axe measures colours as painted: a popover still fading in has partial opacity and fails contrast
  // it meets once shown. Wait for every finite animation (open/close transitions) to settle first.
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target, html: n.html.slice(0, 200) })),
    }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** The two widths every screen is checked at: a phone's and a desktop's. */
export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1366, height: 900 } as const;

/**
 * Runs `check` (layout: no sideways scroll, axe, a screenshot) on `page` at a phone's width and at
 * a desktop's, then gives the page its own size back: a journey walks its flow once and still has
 * each screen it reaches checked at both widths (issue 42: one journey per flow).
 */
export async function atBothWidths(page: Page, check: (width: number) => Promise<void>): Promise<void> {
  const own = page.viewportSize();
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    // Layout that follows the width in script (a media-query hook) renders on the next frames.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await check(size.width);
  }
  if (own) await page.setViewportSize(own);
}

export function formatViolations(violations: AxeViolation[]): string {
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.html).join("\n  ")}`).join("\n");
}

/**
 * "Opens the e-mail": the link to `path` ("/reset-password", "/verify-email") in the newest mail
 * the server queued for `email`, read from its outbox table (the default transport). Waits a little
 * for the mail, since the page's request may still be in flight.
 */
export async function latestMailLink(server: Pick<RunningServer, "databaseUrl">, email: string, path: string): Promise<string> {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const { rows } = await client.query<{ text: string }>(`select text from email_outbox where "to" = $1 order by created_at desc`, [email]);
      for (const row of rows) {
        // `path` is a plain path ("/verify-email"): no character in it means anything to RegExp.
        const link = new RegExp(`https?://\\S+${path}\\?token=[A-Za-z0-9_-]+`).exec(row.text)?.[0];
        if (link) return link;
      }
      if (Date.now() > deadline) throw new Error(`no ${path} link e-mailed to ${email}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await client.end();
  }
}

/**
 * An authenticator code for `secret`, `steps` steps ahead of now. Each code is accepted once, so a
 * second sign-in in the same 30 seconds uses the next step's (the server accepts one step ahead).
 */
export function totpCode(secret: string, steps = 0): string {
  return generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
}

/**
 * Signs `page`'s browser context in as `email` through the API, then opens `returnTo`: what most
 * journeys need before what they test (0.65 s against 2.1 s through the form). Each call is a
 * session of its own, except the demo admin's: their authenticator code is accepted once, so each
 * server signs them in once and every admin context of the file shares that session.
 * Journeys about signing in fill the form themselves (accounts, account-recovery, second-factors,
 * moderation's refused sign-in, forms-felix's sign-in that keeps a draft).
 */
export async function signIn(page: Page, baseUrl: string, email: string, password: string, returnTo = "/"): Promise<void> {
  const context = page.context();
  if (email === DEMO.admin) {
    await context.addCookies(await demoAdminCookies(baseUrl, password));
  } else {
    const res = await context.request.post(`${baseUrl}/api/auth/login`, { data: { email, password }, headers: { origin: baseUrl } });
    if (res.status() !== 200) throw new Error(`sign-in ${email}: ${res.status()} ${await res.text()}`);
  }
  await page.goto(`${baseUrl}${returnTo}`);
}

const adminSessions = new Map<string, Promise<Cookie[]>>();

/** The demo admin's session cookies on the server at `baseUrl`, signed in (with the second step) once. */
function demoAdminCookies(baseUrl: string, password: string): Promise<Cookie[]> {
  let cookies = adminSessions.get(baseUrl);
  if (!cookies) {
    cookies = (async () => {
      const api = await request.newContext({ baseURL: baseUrl, extraHTTPHeaders: { origin: baseUrl } });
      try {
        await signInThroughApi(api, DEMO.admin, password);
        return (await api.storageState()).cookies;
      } finally {
        await api.dispose();
      }
    })();
    adminSessions.set(baseUrl, cookies);
  }
  return cookies;
}

/**
 * Signs `api` in through the API as `email`; the demo admin answers the second step with the demo
 * admin's app (decision 049), trying the next step's code when this step's was used already.
 */
export async function signInThroughApi(api: APIRequestContext, email: string, password: string): Promise<void> {
  const res = await api.post("/api/auth/login", { data: { email, password } });
  if (res.status() === 200) return;
  if (res.status() !== 202 || email !== DEMO.admin) throw new Error(`sign-in ${email}: ${res.status()}`);
  for (const steps of [0, 1]) {
    if ((await api.post("/api/auth/second-factor", { data: { code: totpCode(DEMO_ADMIN_TOTP_SECRET, steps) } })).ok()) return;
  }
  throw new Error(`sign-in ${email}: the second step was refused`);
}

/** `api`'s answer to a JSON request as T; an error naming the request when it is not 2xx. */
export async function apiCall<T>(api: APIRequestContext, method: "GET" | "POST" | "PATCH" | "PUT", path: string, data?: unknown): Promise<T> {
  const res = await api.fetch(path, { method, data });
  if (!res.ok()) throw new Error(`${method} ${path}: ${res.status()} ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * Registers `person` through the API and opens the e-mailed verification link, as a new user does
 * (posting, applying and paying need a verified address); `api` is then signed in as them.
 */
export async function registerThroughApi(
  server: Pick<RunningServer, "databaseUrl">,
  api: APIRequestContext,
  person: { email: string; firstName: string; lastName: string; password: string },
): Promise<{ id: string; firstName: string; lastName: string }> {
  await apiCall(api, "POST", "/api/auth/register", person);
  const token = new URL(await latestMailLink(server, person.email, "/verify-email")).searchParams.get("token");
  return apiCall(api, "POST", "/api/auth/verify-email", { token });
}

/** Sends `api`'s provider application with an ID document and a profile photo, as the form does. */
export async function applyThroughApi(api: APIRequestContext, email: string, fields: { address: string; city: string; bio: string; phone: string }): Promise<void> {
  const upload = async (kind: "id_document" | "profile_photo") => {
    const { uploadURL } = await apiCall<{ uploadURL: string }>(api, "POST", "/api/objects/upload", { kind });
    const put = await api.put(uploadURL, { data: tinyPng(), headers: { "content-type": "image/png" } });
    if (!put.ok()) throw new Error(`upload of the ${kind}: ${put.status()}`);
    const [path, body] = kind === "id_document" ? ["set-id-document", { idDocumentURL: uploadURL }] : ["set-profile-photo", { profilePhotoURL: uploadURL }];
    return (await apiCall<{ objectPath: string }>(api, "PUT", `/api/provider/${path}`, body)).objectPath;
  };
  await apiCall(api, "POST", "/api/provider/apply", {
    fullName: "Applicant Name",
    email,
    phone: fields.phone,
    address: fields.address,
    city: fields.city,
    state: "MD",
    zipCode: "21401",
    serviceTypes: ["errands", "delivery"],
    idDocumentUrl: await upload("id_document"),
    profilePhotoUrl: await upload("profile_photo"),
    availability: { monday: true },
    bio: fields.bio,
    agreeTerms: true,
  });
}

/**
 * The admin (`api`, signed in as one) approves `userId`'s application after recording the clear
 * background check approval needs (docs/decisions/064-background-checks.md).
 */
export async function approveThroughApi(api: APIRequestContext, userId: string): Promise<void> {
  await apiCall(api, "POST", `/api/admin/providers/${userId}/background-checks`, {
    checkedWhat: "County criminal records, MD, 7 years",
    result: "clear",
    checkedOn: new Date().toISOString().slice(0, 10),
  });
  await apiCall(api, "POST", `/api/admin/applications/${userId}/approve`);
}

export const DEMO = {
  password: "demo-harbor-lantern",
  poster: "poster@errandly.test",
  provider: "provider@errandly.test",
  admin: "admin@errandly.test",
} as const;

/** The job board map's task markers ("Task: <title>, $25") and cluster markers ("3 tasks here. Zoom in"). */
export const taskMarkers = (p: Page) => p.getByRole("button", { name: /^Task: / });
export const clusterMarkers = (p: Page) => p.getByRole("button", { name: /tasks here\. Zoom in$/ });

/** Tasks the job board's map shows: one per task marker, a cluster's count for each cluster. */
export async function tasksOnMap(p: Page): Promise<number> {
  const clusters = await clusterMarkers(p).evaluateAll((els) => els.map((e) => Number.parseInt(e.getAttribute("aria-label") ?? "0", 10)));
  return (await taskMarkers(p).count()) + clusters.reduce((a, b) => a + b, 0);
}

/** A server as a journey sees it: where it answers, and its database. */
export type JourneyServer = Pick<RunningServer, "url" | "databaseUrl" | "dataDir">;

export interface Journey {
  /** Set before the file's first test. */
  server: JourneyServer;
  browser: Browser;
  /** Calls the API as `page`'s signed-in person and returns the JSON answer; any status but 2xx throws. */
  api<T>(page: Page, method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE", path: string, data?: unknown): Promise<T>;
  /** Pays a claimed task with the sandbox's good card as `poster`, through the routes the card form uses. */
  payByApi(poster: Page, task: { id: string; totalAmount: number }): Promise<void>;
}

/**
 * A server of the file's own, on its own copy of the demo data, and the run's Chromium; the server
 * is stopped after the file's last test. For a journey that needs an environment of its own (`env`)
 * or the demo accounts in their seeded state; the others share the run's server (useSharedServer).
 */
export function useServerAndBrowser(env: Record<string, string> = {}): Journey {
  const journey = newJourney();
  let server: RunningServer | undefined;
  beforeAll(async () => {
    [server, journey.browser] = await Promise.all([startServer(env), connectBrowser()]);
    journey.server = server;
  });
  afterAll(async () => {
    await journey.browser?.close();
    await server?.stop();
  });
  return journey;
}

/**
 * The run's shared server (global-setup.ts) and its Chromium: no server start of the file's own
 * (about 4.5 s of CPU each). Every file before this one has acted on that server, so a journey
 * here works only with people and tasks of its own (newPerson) and never with the demo accounts,
 * whose tasks, claims and notifications other journeys change (cal.com's model).
 */
export function useSharedServer(): Journey {
  const journey = newJourney();
  beforeAll(async () => {
    journey.server = inject("e2eSharedServer");
    journey.browser = await connectBrowser();
  });
  afterAll(async () => {
    await journey.browser?.close();
  });
  return journey;
}

function newJourney(): Journey {
  const journey = {
    async api<T>(page: Page, method: string, path: string, data?: unknown): Promise<T> {
      const res = await page.request.fetch(`${journey.server.url}${path}`, { method, data, headers: { origin: journey.server.url } });
      if (!res.ok()) throw new Error(`${method} ${path}: ${res.status()} ${await res.text()}`);
      return (await res.json()) as T;
    },
    async payByApi(poster: Page, task: { id: string; totalAmount: number }): Promise<void> {
      const { clientSecret } = await journey.api<{ clientSecret: string }>(poster, "POST", "/api/create-payment-intent", { amount: task.totalAmount, taskId: task.id });
      await journey.api(poster, "POST", "/api/sandbox/payments/confirm", { clientSecret, ...GOOD_CARD });
    },
  } as Journey;
  return journey;
}

/** The password every person newPerson makes signs in with. */
const PERSON_PASSWORD = "violet canyon lantern 2026";

let personCount = 0;

/**
 * Someone new on `journey`'s server, written straight into its database (as test/fixtures/factory.ts
 * does): a verified account with a password and, for "provider", an approved provider profile with a
 * clear background check. Not through registration, whose per-address limit (20 in 15 minutes) a
 * whole run on one server would pass. Their browser context (`options`: a viewport, say) is signed
 * in through the API on `returnTo`, with nothing logged on the page yet.
 */
export async function newPerson(
  journey: Journey,
  role: "poster" | "provider",
  returnTo = "/dashboard",
  options: BrowserContextOptions = {},
): Promise<TestPage & { person: { id: string; email: string; firstName: string; lastName: string } }> {
  personCount += 1;
  const tag = `${process.pid.toString(36)}${Date.now().toString(36)}${personCount}`;
  const person = { email: `${role}-${tag}@example.test`, firstName: role === "poster" ? "Paula" : "Pavel", lastName: `${role === "poster" ? "Poster" : "Provider"}${personCount}` };
  const database = await openDatabase({ databaseUrl: journey.server.databaseUrl, poolSize: 1 });
  let id: string;
  try {
    const [user] = await database.db
      .insert(users)
      .values({ ...person, role: role === "provider" ? "provider" : "user", passwordHash: await hashPassword(PERSON_PASSWORD), emailVerifiedAt: new Date() })
      .returning({ id: users.id });
    if (!user) throw new Error("user not created");
    id = user.id;
    if (role === "provider") await insertApprovedProfile(database.db, { id, email: person.email, fullName: `${person.firstName} ${person.lastName}`, bio: "Errands around Annapolis" });
  } finally {
    await database.close();
  }
  const page = await newPage(await journey.browser.newContext(options));
  await signIn(page, journey.server.url, person.email, PERSON_PASSWORD, returnTo);
  page.problems.length = 0;
  return Object.assign(page, { person: { id, ...person } });
}

/**
 * The demo poster, signed in in a browser context of their own, posts `body` through the API (as
 * test/fixtures/task-bodies.ts builds it): their page, to check it stayed clean, and the new task.
 */
export async function postAsDemoPoster(journey: Journey, body: CreateTaskBody): Promise<{ poster: Awaited<ReturnType<typeof newPage>>; task: { id: string } }> {
  const poster = await newPage(await journey.browser.newContext());
  await signIn(poster, journey.server.url, DEMO.poster, DEMO.password, "/");
  return { poster, task: await journey.api<{ id: string }>(poster, "POST", "/api/tasks", body) };
}

/**
 * The bytes of a finished download. The run's Chromium is another process's (connectBrowser), so
 * the file is not on a path of ours: Playwright streams it over the connection.
 */
export async function downloadedBody(download: Download): Promise<Buffer> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export type TestPage = Awaited<ReturnType<typeof newPage>>;

/**
 * The demo poster and the demo provider, each signed in through the API in a browser context of
 * their own (`options`: a viewport, say) on `returnTo`, with nothing logged on their pages yet.
 */
export async function posterAndProvider(journey: Journey, returnTo = "/dashboard", options: BrowserContextOptions = {}): Promise<{ poster: TestPage; provider: TestPage }> {
  const [poster, provider] = await Promise.all(
    [DEMO.poster, DEMO.provider].map(async (email) => {
      const page = await newPage(await journey.browser.newContext(options));
      await signIn(page, journey.server.url, email, DEMO.password, returnTo);
      page.problems.length = 0;
      return page;
    }),
  );
  if (!poster || !provider) throw new Error("two pages were asked for");
  return { poster, provider };
}
