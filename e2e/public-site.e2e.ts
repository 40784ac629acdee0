import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { formatDollars } from "../src/shared/money.js";
import { prerenderedPaths } from "../src/shared/page-head.js";
import { DEMO, formatViolations, newPage, seriousAxeViolations, signIn, useServerAndBrowser } from "./harness.js";

// The public site on the built app, on one server (once three files: prerendered-pages, seo-head
// and public-site).
// - The public pages that show no data arrive as HTML the build rendered, so a phone paints them
//   before any script has run, and the web app hydrates that HTML instead of painting it again
//   (issue 17, docs/decisions/033-prerendered-public-pages.md). Which pages the build renders is
//   src/shared/page-head.test.ts's.
// - What crawlers and link previews read from the built app: a task page's HTML, fetched as a
//   plain HTTP request with no JavaScript, carries its own title, budget and share tags, and the
//   share image is really shipped; and the browser tab keeps the right title while the app
//   navigates (issue 17; docs/decisions/028-head-tags-from-the-server.md). Each public page's own
//   title, description and indexing, robots.txt and sitemap.xml are server tests
//   (src/server/features/seo/seo.test.ts, and src/shared/page-head.test.ts for one description per
//   page); Lighthouse's SEO score is in budgets.e2e.ts, in one run with accessibility.
// - The landing page's links, and the admin's inbox with messages in it. The contact and
//   appointment forms are component tests (src/web/features/site/components/*.test.tsx), who may
//   open the inbox src/web/app/protected-route.test.tsx's and every-route-a11y.e2e.ts's, which
//   also sweeps every route's one h1, title and axe in both themes.

const e2e = useServerAndBrowser();

const PATHS = prerenderedPaths();

const mainText = (page: Page) => page.locator("main").innerText();

function decode(text: string): string {
  return text.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));
}
const titleOf = (html: string) => [...html.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => decode(m[1] ?? ""));
const metaOf = (html: string, key: string) => {
  const found = new RegExp(`<meta (?:name|property)="${key}" content="([^"<>]*)" />`).exec(html);
  return found ? decode(found[1] ?? "") : undefined;
};

async function html(path: string): Promise<string> {
  const res = await fetch(`${e2e.server.url}${path}`);
  expect(res.status, path).toBe(200);
  return res.text();
}

describe("prerendered public pages", () => {
  it("shows each page's heading and content with JavaScript off, the same the app shows once it runs", async () => {
    const off = await e2e.browser.newContext({ javaScriptEnabled: false });
    const on = await e2e.browser.newContext();
    const bare = await off.newPage();
    const app = await newPage(on);
    for (const path of PATHS) {
      await bare.goto(`${e2e.server.url}${path}`);
      await app.goto(`${e2e.server.url}${path}`);
      await app.waitForLoadState("networkidle");
      const heading = await app.locator("h1").first().innerText();
      expect(await bare.locator("h1").first().innerText(), path).toBe(heading);
      expect(await bare.locator("h1").first().isVisible(), path).toBe(true);
      expect(await mainText(bare), path).toBe(await mainText(app));
    }
    app.assertClean();
    await off.close();
    await on.close();
  });

  it("hydrates without a mismatch: no console error, and the page answers clicks and navigates in place", async () => {
    const context = await e2e.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await newPage(context);
    await page.goto(`${e2e.server.url}/`);
    await page.waitForLoadState("networkidle");
    await page.locator('[data-testid="theme-toggle"]:visible').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    // A link followed by the client router keeps this document (and the marker in it).
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("navigation", { name: "Mobile" }).getByRole("link", { name: "Job Board" }).click();
    await page.waitForURL(`${e2e.server.url}/job-board`);
    await expect.poll(() => page.locator("h1").first().innerText()).toBe("Job Board");
    expect(await page.evaluate(() => "sameDocument" in window)).toBe(true);
    page.assertClean();
    await context.close();
  });

  it("answers a tap before its scripts have run: Post a Task opens the wizard, Become a Provider asks a visitor to sign in", async () => {
    const context = await e2e.browser.newContext({ viewport: { width: 390, height: 844 } });
    // A bare page: the harness's would wait at each navigation for the page to hydrate.
    const page = await context.newPage();
    // The page's scripts wait until the tap has been made, as on a slow phone.
    let holding = true;
    const held: (() => void)[] = [];
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      if (holding) await new Promise<void>((release) => held.push(release));
      await route.continue().catch(() => undefined); // the page it was for may be gone
    });
    const releaseScripts = () => {
      holding = false;
      for (const release of held.splice(0)) release();
    };
    const scriptsHaveRun = () =>
      page.evaluate(() => Object.keys(document.getElementById("root") ?? {}).some((key) => key.startsWith("__reactContainer")));

    await page.goto(`${e2e.server.url}/`, { waitUntil: "commit" });
    await page.getByRole("button", { name: "Post a Task" }).waitFor();
    expect(await scriptsHaveRun()).toBe(false);
    await page.getByRole("button", { name: "Post a Task" }).click();
    await page.waitForURL(`${e2e.server.url}/?post=task`, { waitUntil: "commit" });
    releaseScripts();
    await expect.poll(() => page.getByRole("dialog", { name: "Post a Task" }).isVisible()).toBe(true);

    holding = true;
    await page.goto(`${e2e.server.url}/`, { waitUntil: "commit" });
    await page.getByRole("button", { name: "Become a Provider" }).waitFor();
    expect(await scriptsHaveRun()).toBe(false);
    await page.getByRole("button", { name: "Become a Provider" }).click();
    await page.waitForURL(/\/become-provider/, { waitUntil: "commit" });
    releaseScripts();
    await page.waitForURL(/\/sign-in\?returnTo=%2Fbecome-provider$/);
    await context.close();
  });

  it("paints without moving: no layout shift while the landing page's scripts arrive at 390 px", async () => {
    const context = await e2e.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await newPage(context);
    await page.addInitScript(() => {
      const shifts: number[] = [];
      Object.assign(window, { shifts });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) shifts.push((entry as PerformanceEntry & { value: number }).value);
      }).observe({ type: "layout-shift", buffered: true });
    });
    await page.goto(`${e2e.server.url}/`);
    await page.waitForLoadState("networkidle");
    const shift = await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts.reduce((a, b) => a + b, 0));
    expect(shift).toBeLessThanOrEqual(0.05);
    page.assertClean();
    await context.close();
  });

  it("hydrates for a signed-in person too, whose header then shows their account, and Post a Task opens the wizard", async () => {
    const context = await e2e.browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await newPage(context);
    await signIn(page, e2e.server.url, DEMO.poster, DEMO.password, "/");
    await page.getByRole("button", { name: "Post a Task" }).click();
    await expect.poll(() => page.getByRole("dialog", { name: "Post a Task" }).isVisible()).toBe(true);
    await page.goto(`${e2e.server.url}/faq`);
    await expect.poll(() => page.getByLabel(/^Signed in as /).isVisible()).toBe(true);
    expect(await page.locator("h1").first().innerText()).toBe("Frequently Asked Questions");
    page.assertClean();
    await context.close();
  });
});

describe("a task page's head tags without JavaScript", () => {
  it("a task page carries the task's title, budget and share tags; a profile the display name", async () => {
    const tasks = (await (await fetch(`${e2e.server.url}/api/tasks/open`)).json()) as { id: string; title: string; budget: number; poster: { id: string; displayName: string } }[];
    const task = tasks[0];
    if (!task) throw new Error("the demo seed has no open task");
    const body = await html(`/task/${task.id}`);
    expect(titleOf(body)).toEqual([`${task.title} | Errandly`]);
    expect(metaOf(body, "og:title")).toBe(`${task.title} | Errandly`);
    expect(metaOf(body, "og:description")).toContain(`Budget ${formatDollars(Math.round(task.budget * 100))}`);
    expect(metaOf(body, "og:url")).toBe(`${e2e.server.url}/task/${task.id}`);
    const image = metaOf(body, "og:image");
    expect(image).toBe(`${e2e.server.url}/og-image.png`);
    // The default share image is really shipped.
    const png = await fetch(image ?? "");
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");

    const profile = await html(`/users/${task.poster.id}`);
    expect(titleOf(profile)).toEqual([`${task.poster.displayName}'s profile | Errandly`]);
  });
});

describe("titles while the app navigates", () => {
  it("document.title follows client navigation, to a task's own title", async () => {
    const context = await e2e.browser.newContext();
    const page = await newPage(context);
    await page.goto(`${e2e.server.url}/`);
    await expect.poll(() => page.title()).toBe("Errandly: local errands and tasks, done by verified providers");

    // Footer links are client-side navigation (wouter), no page load.
    await page.getByRole("contentinfo").getByRole("link", { name: "Pricing" }).click();
    await page.getByRole("heading", { level: 1, name: "Pricing" }).waitFor();
    expect(await page.title()).toBe("Pricing | Errandly");
    expect(await page.locator('meta[name="description"]').getAttribute("content")).toContain("service fee");

    await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).click();
    await page.getByRole("heading", { level: 1, name: "Privacy Policy" }).waitFor();
    expect(await page.title()).toBe("Privacy Policy | Errandly");

    // A task opened from the job board: the page's title is the task's.
    await page.goto(`${e2e.server.url}/job-board`);
    const firstCard = page.locator('main a[href^="/task/"]').first();
    await firstCard.waitFor();
    await firstCard.click();
    await page.waitForURL(/\/task\//);
    const heading = (await page.getByRole("heading", { level: 1 }).first().textContent()) ?? "";
    await expect.poll(() => page.title()).toBe(`${heading.trim()} | Errandly`);

    // Back on a fixed page, the route's title again.
    await page.goBack();
    await expect.poll(() => page.title()).toBe("Job Board | Errandly");
    await context.close();
  });
});

describe("public site", () => {
  // Post a Task from the landing page as a visitor is forms-felix.e2e.ts's (the draft kept across
  // signing in); signed in, it is the hydration test's above.
  it("landing: Browse Tasks opens the job board filtered, Become a Provider sends a visitor to sign in", async () => {
    const context = await e2e.browser.newContext();
    const page = await newPage(context);
    await page.goto(`${e2e.server.url}/`);
    await page.getByRole("link", { name: "Browse Tasks: Pet Care" }).click();
    await page.waitForURL(`${e2e.server.url}/job-board?category=pet`);

    await page.goto(`${e2e.server.url}/`);
    await page.getByRole("button", { name: "Become a Provider" }).click();
    await page.waitForURL(/\/sign-in\?returnTo=%2Fbecome-provider$/);
    page.assertClean();
    await context.close();
  });

  it("admin inbox: a message and an appointment request, each on its tab, with no axe violation", async () => {
    const context = await e2e.browser.newContext();
    const subject = `Inbox check ${Date.now().toString(36)}`;
    const post = async (path: string, data: unknown) => {
      const res = await context.request.post(`${e2e.server.url}${path}`, { data, headers: { origin: e2e.server.url } });
      expect(res.status(), path).toBe(201);
    };
    await post("/api/contact", { name: "Robin Reader", email: "robin@example.test", subject, message: "Is the inbox working?" });
    await post("/api/appointments", {
      name: "Quinn Planner",
      email: "quinn@example.test",
      phone: "410-555-0123",
      // 15:00 UTC is 10 or 11 AM in Annapolis: within opening hours.
      appointmentDate: new Date(new Date(Date.now() + 3 * 86_400_000).setUTCHours(15, 0, 0, 0)).toISOString(),
      reason: "Setting up a business account.",
      preferContact: "text",
    });

    const page = await newPage(context);
    await signIn(page, e2e.server.url, DEMO.admin, DEMO.password, "/admin/inbox");
    await expect.poll(() => page.getByRole("cell", { name: subject }).isVisible()).toBe(true);
    expect(await page.title()).toBe("Inbox | Errandly");
    let violations = await seriousAxeViolations(page);
    expect(violations, formatViolations(violations)).toEqual([]);
    await page.getByRole("tab", { name: "Appointment Requests" }).click();
    await expect.poll(() => page.getByText("Quinn Planner", { exact: true }).isVisible()).toBe(true);
    const requests = page.getByRole("table", { name: "Appointment requests" });
    await expect.poll(() => requests.getByText("Text Message", { exact: true }).isVisible()).toBe(true);
    violations = await seriousAxeViolations(page);
    expect(violations, formatViolations(violations)).toEqual([]);
    page.assertClean();
    await context.close();
  });
});
