import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request, type APIRequestContext, type Browser, type BrowserContext } from "playwright-core";
import { ROUTE_HEADS } from "../src/shared/page-head.js";
import { DEMO, formatViolations, connectBrowser, newPage, seriousAxeViolations, signInThroughApi, startServer, type RunningServer } from "./harness.js";

// The single complete accessibility sweep (issue #8): every route of the route table, signed
// out and signed in as each role that sees something of its own there, each in the light and the
// dark theme, with no serious or critical axe violation, and none scrolling sideways at 390 px. The
// route list is read from the route table, so a new page without a line in PLAN fails here. Each
// page also has one h1 and a title in the tab.

type Role = "poster" | "provider" | "admin";

interface Visit {
  /** null: signed out. */
  as: Role | null;
  /** The h1 the visitor must end up on (a redirect to sign in included). */
  h1: string;
  /** Another URL for the route pattern (a real task id, a claimed task). */
  url?: string;
  /** The page shows the API's 404 for what it asks (an unknown receipt): the browser logs that answer. */
  shows404?: true;
}

const SIGN_IN = "Welcome to Errandly";
const DENIED = "Access Denied";
const OPEN_TASK = "{openTask}";
const CLAIMED_TASK = "{claimedTask}";
const PROVIDER_ID = "{providerId}";

/** Keyed by the router's path; "*" is the catch-all (404). */
const PLAN: Record<string, Visit[]> = {
  "/": [
    { as: null, h1: "Get your errands and tasks done by verified local providers" },
    { as: "poster", h1: "Get your errands and tasks done by verified local providers" },
  ],
  "/how-it-works": [{ as: null, h1: "How It Works" }],
  "/services": [{ as: null, h1: "Our Services" }],
  "/pricing": [{ as: null, h1: "Pricing" }],
  "/faq": [{ as: null, h1: "Frequently Asked Questions" }],
  "/become-provider": [
    { as: null, h1: SIGN_IN },
    { as: "poster", h1: "Turn Your Free Time Into Income" },
    { as: "provider", h1: "Turn Your Free Time Into Income" },
  ],
  "/benefits": [{ as: null, h1: "Provider Benefits" }],
  "/provider-benefits": [{ as: null, h1: "Provider Benefits" }],
  "/requirements": [{ as: null, h1: "Provider Requirements" }],
  "/provider-support": [{ as: null, h1: "Provider Support" }],
  "/support": [{ as: null, h1: "Provider Support" }],
  "/jobs": [{ as: null, h1: "Job Board" }],
  "/job-board": [
    { as: null, h1: "Job Board" },
    { as: "provider", h1: "Job Board" },
  ],
  "/providers": [
    { as: null, h1: "Browse Available Providers" },
    { as: "admin", h1: "Browse Available Providers" },
  ],
  // The demo provider's public profile, as a visitor and as its owner (Profile not found: profiles.e2e.ts).
  "/users/:id": [
    { as: null, h1: "Devon P.", url: `/users/${PROVIDER_ID}` },
    { as: "provider", h1: "Devon P.", url: `/users/${PROVIDER_ID}` },
    { as: "poster", h1: "Devon P.", url: `/users/${PROVIDER_ID}` },
  ],
  "/dashboard": [
    { as: null, h1: "Sign In Required" },
    { as: "poster", h1: "My Dashboard" },
    { as: "provider", h1: "My Dashboard" },
    { as: "admin", h1: "My Dashboard" },
  ],
  "/task/:id": [
    { as: null, h1: OPEN_TASK, url: `/task/${OPEN_TASK}` },
    { as: "poster", h1: OPEN_TASK, url: `/task/${OPEN_TASK}` },
    { as: "provider", h1: OPEN_TASK, url: `/task/${OPEN_TASK}` },
    { as: "admin", h1: OPEN_TASK, url: `/task/${OPEN_TASK}` },
  ],
  // The alias, on a claimed task: the poster's payment card, the provider's chat and wait notice.
  "/tasks/:id": [
    { as: null, h1: CLAIMED_TASK, url: `/tasks/${CLAIMED_TASK}` },
    { as: "poster", h1: CLAIMED_TASK, url: `/tasks/${CLAIMED_TASK}` },
    { as: "provider", h1: CLAIMED_TASK, url: `/tasks/${CLAIMED_TASK}` },
  ],
  "/admin": [
    { as: null, h1: SIGN_IN },
    { as: "poster", h1: DENIED },
    { as: "admin", h1: "Admin Dashboard" },
  ],
  "/admin/inbox": [
    { as: null, h1: SIGN_IN },
    { as: "poster", h1: DENIED },
    { as: "admin", h1: "Inbox" },
  ],
  "/admin/finance": [
    { as: null, h1: SIGN_IN },
    { as: "admin", h1: "Finance" },
  ],
  "/admin/audit": [
    { as: null, h1: SIGN_IN },
    { as: "admin", h1: "Audit Log" },
  ],
  "/admin/outbox": [
    { as: null, h1: SIGN_IN },
    { as: "admin", h1: "E-mail Outbox" },
  ],
  "/admin/reports": [
    { as: null, h1: SIGN_IN },
    { as: "admin", h1: "Reports" },
  ],
  "/provider/profile": [
    { as: null, h1: SIGN_IN },
    { as: "poster", h1: "My Provider Profile" },
    { as: "provider", h1: "My Provider Profile" },
  ],
  "/privacy": [{ as: null, h1: "Privacy Policy" }],
  "/terms": [{ as: null, h1: "Terms of Service" }],
  "/contact": [{ as: null, h1: "Contact Us" }],
  "/book-appointment": [{ as: null, h1: "Schedule an Office Visit" }],
  "/sign-in": [{ as: null, h1: SIGN_IN }],
  // Without a pending challenge the form still shows; second-factors.e2e.ts signs in through it.
  "/sign-in/second-step": [{ as: null, h1: "Confirm it is you" }],
  "/forgot-password": [{ as: null, h1: "Forgot your password?" }],
  // Without a token each says so and offers a way onward; the e-mailed links are account-recovery.e2e.ts.
  "/reset-password": [{ as: null, h1: "Choose a new password" }],
  "/verify-email": [{ as: null, h1: "Confirm your e-mail address" }],
  "/earnings": [
    { as: null, h1: SIGN_IN },
    { as: "provider", h1: "Earnings" },
  ],
  "/settings/:tab?": [
    { as: null, h1: "Settings", url: "/settings/notifications" },
    { as: "poster", h1: "Settings", url: "/settings/profile" },
    { as: "poster", h1: "Settings", url: "/settings/security" },
    { as: "poster", h1: "Settings", url: "/settings/email" },
    { as: "poster", h1: "Settings", url: "/settings/notifications" },
    { as: "poster", h1: "Settings", url: "/settings/privacy" },
    { as: "poster", h1: "Settings", url: "/settings/calendar" },
    { as: "provider", h1: "Settings", url: "/settings/profile" },
    { as: "provider", h1: "Settings", url: "/settings/alerts" },
    { as: "provider", h1: "Settings", url: "/settings/calendar" },
  ],
  "/goodbye": [{ as: null, h1: "Your account is deleted" }],
  "/payouts/sandbox-onboarding": [
    { as: null, h1: SIGN_IN },
    { as: "provider", h1: "Set Up Payouts" },
  ],
  // A paid receipt and a statement with figures are receipts.e2e.ts; here the empty and unknown ones.
  "/receipts": [
    { as: null, h1: SIGN_IN },
    { as: "poster", h1: "Receipts" },
  ],
  "/receipts/:id": [
    { as: null, h1: SIGN_IN, url: "/receipts/00000000-0000-4000-8000-000000000000" },
    { as: "poster", h1: "Receipt not found", url: "/receipts/00000000-0000-4000-8000-000000000000", shows404: true },
  ],
  "/earnings/statement/:year": [
    { as: null, h1: SIGN_IN, url: "/earnings/statement/2001" },
    { as: "provider", h1: "Yearly statement 2001", url: "/earnings/statement/2001", shows404: true },
  ],
  "/admin/ledger": [
    { as: null, h1: SIGN_IN },
    { as: "admin", h1: "Ledger" },
  ],
  "*": [
    { as: null, h1: "Page Not Found", url: "/no/such/page" },
    { as: "provider", h1: "Page Not Found", url: "/no/such/page" },
  ],
};

/** The route table's patterns (src/shared/page-head.ts, which the router renders), "*" for its catch-all (404). */
function routerPaths(): string[] {
  expect(ROUTE_HEADS.length).toBeGreaterThan(10);
  return [...ROUTE_HEADS.map((r) => r.pattern), "*"];
}

// Browsers log the signed-out user call (401).
const EXPECTED_NETWORK = [/401 \(Unauthorized\)/];
const POLL = { timeout: 20_000, interval: 100 };

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Awaited<ReturnType<typeof newPage>>;
const sessions = new Map<Role, APIRequestContext>();
const ids = { openTask: "", openTitle: "", claimedTask: "", claimedTitle: "", providerId: "" };
/** "role path" of each visit that reached its page. */
const swept: string[] = [];
/** Pages already measured, by role, path and theme. */
const measured = new Set<string>();

async function signInApi(email: string): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL: server.url, extraHTTPHeaders: { origin: server.url } });
  await signInThroughApi(api, email, DEMO.password);
  return api;
}

beforeAll(async () => {
  server = await startServer();
  browser = await connectBrowser();
  context = await browser.newContext();
  page = await newPage(context);
  const poster = await signInApi(DEMO.poster);
  const provider = await signInApi(DEMO.provider);
  sessions.set("poster", poster).set("provider", provider).set("admin", await signInApi(DEMO.admin));
  const tasks = (await (await poster.get("/api/tasks/my-tasks")).json()) as { id: string; title: string; status: string }[];
  const [open, claimed] = tasks.filter((t) => t.status === "open");
  if (!open || !claimed) throw new Error("the demo poster needs two open tasks");
  expect((await provider.patch(`/api/tasks/${claimed.id}/claim`)).ok()).toBe(true);
  const providerId = ((await (await provider.get("/api/auth/user")).json()) as { id: string }).id;
  Object.assign(ids, { openTask: open.id, openTitle: open.title, claimedTask: claimed.id, claimedTitle: claimed.title, providerId });
});
afterAll(async () => {
  for (const api of sessions.values()) await api.dispose();
  await browser?.close();
  await server?.stop();
});

const fill = (text: string) => text.replace(OPEN_TASK, ids.openTask).replace(CLAIMED_TASK, ids.claimedTask).replace(PROVIDER_ID, ids.providerId);
const heading = (text: string) => (text === OPEN_TASK ? ids.openTitle : text === CLAIMED_TASK ? ids.claimedTitle : text);

/** Opens each of the role's visits and measures it in both themes; returns what went wrong. */
async function sweep(role: Role | null): Promise<string[]> {
  // Leave the last page first, so its 401 after the cookie goes cannot navigate mid-visit.
  await page.goto("about:blank");
  await context.clearCookies();
  const api = role ? sessions.get(role) : undefined;
  if (api) await context.addCookies((await api.storageState()).cookies);
  const who = role ?? "signed out";
  const failures: string[] = [];
  for (const [path, plan] of Object.entries(PLAN)) {
    for (const visit of plan.filter((v) => v.as === role)) {
      const url = fill(visit.url ?? path);
      const logged = page.problems.length;
      await page.goto(`${server.url}${url}`);
      try {
        await page.getByRole("heading", { level: 1, name: heading(visit.h1), exact: true }).waitFor({ state: "visible", timeout: POLL.timeout });
        // Loaded: no spinner or skeleton left, so axe sees the page a person reads.
        await expect.poll(() => page.locator(".animate-spin, .animate-pulse").count(), POLL).toBe(0);
        if (visit.shows404) {
          const own = page.problems.splice(logged);
          expect(own.filter((p) => /404 \(Not Found\)/.test(p)), `${url}: the API's 404 the page shows`).toHaveLength(1);
          page.problems.push(...own.filter((p) => !/404 \(Not Found\)/.test(p)));
        }
      } catch (error) {
        const seen = await page.locator("h1").allInnerTexts();
        failures.push(`${url} (${who}): expected h1 "${heading(visit.h1)}", saw ${JSON.stringify(seen)} at ${page.url()}: ${String(error)}`);
        continue;
      }
      swept.push(`${who} ${path}`);
      const h1Count = await page.locator("h1").count();
      if (h1Count !== 1) failures.push(`${url} (${who}): ${h1Count} h1 elements`);
      // Each page names itself in the tab (the titles themselves: src/server/features/seo/seo.test.ts).
      if (!(await page.title())) failures.push(`${url} (${who}): empty document.title`);
      // Nothing scrolls sideways on a phone: the page at 390 px, then back to the sweep's width.
      const width = page.viewportSize();
      await page.setViewportSize({ width: 390, height: 844 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 0) failures.push(`${url} (${who}): scrolls sideways by ${overflow} px at 390 px`);
      if (width) await page.setViewportSize(width);
      const landed = new URL(page.url()).pathname;
      // Every protected page sends a visitor to the same sign-in page: measured once per theme.
      if (landed === "/sign-in" && measured.has(`${who} ${landed} light`) && measured.has(`${who} ${landed} dark`)) continue;
      for (const round of [1, 2]) {
        const theme = await page.evaluate(() => (document.documentElement.classList.contains("dark") ? "dark" : "light"));
        const key = `${who} ${landed} ${theme}`;
        if (landed !== "/sign-in" || !measured.has(key)) {
          measured.add(key);
          const violations = await seriousAxeViolations(page);
          if (violations.length > 0) failures.push(`${url} (${who}, ${theme}):\n${formatViolations(violations)}`);
        }
        if (round === 2) break;
        // Switch with the header's own toggle, which stores the choice under "theme": the next page
        // then loads in this theme, so page loads alternate and both themes are also read from storage.
        await page.getByTestId("theme-toggle").first().click();
        const next = theme === "dark" ? "light" : "dark";
        await expect.poll(() => page.evaluate(() => localStorage.getItem("theme")), POLL).toBe(next);
      }
    }
  }
  return failures;
}

describe("every route", () => {
  it("the plan covers exactly the router's routes, each signed out too", () => {
    const routes = routerPaths();
    expect([...new Set(routes)].sort()).toEqual(Object.keys(PLAN).sort());
    for (const [path, visits] of Object.entries(PLAN)) {
      expect(visits.some((v) => v.as === null), `${path} signed out`).toBe(true);
    }
  });

  for (const role of [null, "poster", "provider", "admin"] as const) {
    it(`no serious axe violation on any route ${role ? `signed in as ${role}` : "signed out"}, light and dark`, async () => {
      const failures = await sweep(role);
      expect(failures, failures.join("\n\n")).toEqual([]);
      page.assertClean(EXPECTED_NETWORK);
    }, 240_000);
  }

  it("visited every planned route", () => {
    expect(swept.sort()).toEqual(
      Object.entries(PLAN)
        .flatMap(([path, visits]) => visits.map((v) => `${v.as ?? "signed out"} ${path}`))
        .sort(),
    );
  });
});
