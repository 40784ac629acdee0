import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { prerenderedPaths } from "../src/shared/page-head.js";
import { DEMO, newPage, signIn, useServerAndBrowser } from "./harness.js";

// The public pages that show no data arrive as HTML the build rendered, so a phone paints them
// before any script has run, and the web app hydrates that HTML instead of painting it again
// (issue 17, docs/decisions/033-prerendered-public-pages.md).

const e2e = useServerAndBrowser();

const PATHS = prerenderedPaths();

const mainText = (page: Page) => page.locator("main").innerText();

describe("prerendered public pages", () => {
  it("covers the public information pages, and not the pages that list data", () => {
    expect(PATHS).toEqual(expect.arrayContaining(["/", "/how-it-works", "/pricing", "/faq", "/privacy", "/terms", "/contact"]));
    for (const path of ["/jobs", "/job-board", "/providers", "/task/:id", "/users/:id", "/dashboard", "/sign-in"]) expect(PATHS).not.toContain(path);
  });

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

  it("hydrates for a signed-in person too, whose header then shows their account", async () => {
    const context = await e2e.browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await newPage(context);
    await signIn(page, e2e.server.url, DEMO.poster, DEMO.password, "/pricing");
    page.problems.length = 0; // the sign-in page's own 401 before signing in
    await page.goto(`${e2e.server.url}/faq`);
    await expect.poll(() => page.getByLabel(/^Signed in as /).isVisible()).toBe(true);
    expect(await page.locator("h1").first().innerText()).toBe("Frequently Asked Questions");
    page.assertClean();
    await context.close();
  });
});
