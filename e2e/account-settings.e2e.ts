import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext } from "playwright-core";
import { tinyPng } from "../test/fixtures/test-files.js";
import { connectBrowser, DEMO, downloadedBody, formatViolations, newPage, seriousAxeViolations, signIn, startServer, type RunningServer } from "./harness.js";

// The account settings journeys (docs/decisions/021-account-settings-deletion-and-export.md):
// password change and "sign out everywhere else" ending another browser's session, the data export
// download, deleting one's account, and the tabs on a phone-sized screen.

let server: RunningServer;
let browser: Browser;
const SHOTS = join(tmpdir(), "errandly-account-shots");
// Passes the password policy (docs/product.md, Passwords).
const PASSWORD = "quiet walnut harbor 7";
// Sessions that another browser ended answer 401 on that browser's next call.
const ENDED = [/401 \(Unauthorized\)/];
// A refused password answers 400, which the browser logs.
const REFUSED = [/400 \(Bad Request\)/];
// scrypt on a machine shared by several test runs can take seconds.
const POLL = { timeout: 20_000, interval: 100 };

beforeAll(async () => {
  server = await startServer();
  browser = await connectBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

let people = 0;
/**
 * A new local account (through the sign-up API), signed in within `context`: registering signs
 * nobody in (docs/product.md, Accounts: recovery and verification), so the context signs in after.
 */
async function newAccount(context: BrowserContext): Promise<string> {
  people += 1;
  const email = `settings${people}-${Date.now()}@example.test`;
  const res = await context.request.post(`${server.url}/api/auth/register`, {
    data: { email, password: PASSWORD, firstName: "Sam", lastName: `Settings${people}` },
    headers: { origin: server.url },
  });
  expect(res.status()).toBe(202);
  const login = await context.request.post(`${server.url}/api/auth/login`, { data: { email, password: PASSWORD }, headers: { origin: server.url } });
  expect(login.status()).toBe(200);
  return email;
}

/** Whether the browser's session signs someone in, as a status: 200 while it does, 401 once it ended (GET /api/auth/user answers null then). */
async function signedInStatus(context: BrowserContext): Promise<number> {
  return ((await (await context.request.get(`${server.url}/api/auth/user`)).json()) as unknown) === null ? 401 : 200;
}

async function expectAxeClean(page: Awaited<ReturnType<typeof newPage>>): Promise<void> {
  const violations = await seriousAxeViolations(page);
  expect(violations, formatViolations(violations)).toEqual([]);
}

describe("account settings", () => {
  it("changing the password in one browser ends the session of another", async () => {
    const here = await browser.newContext();
    const email = await newAccount(here);
    const there = await browser.newContext();
    const otherPage = await newPage(there);
    await signIn(otherPage, server.url, email, PASSWORD, "/dashboard");
    expect(await signedInStatus(there)).toBe(200);

    const page = await newPage(here);
    await page.goto(`${server.url}/settings/security`);
    await page.getByRole("heading", { name: "Change password" }).waitFor();
    await expect.poll(() => page.getByRole("button", { name: /^Sign out .*, last active/ }).count(), POLL).toBe(1);
    await expectAxeClean(page);
    await page.getByLabel("Current password").fill("not my password");
    await page.getByLabel(/^New password/).fill("silver otter meadow 42");
    await page.getByLabel("Repeat the new password").fill("silver otter meadow 42");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect.poll(() => page.getByText("Your current password is not right").isVisible(), POLL).toBe(true);
    expect(await signedInStatus(there)).toBe(200);

    await page.getByLabel("Current password").fill(PASSWORD);
    await page.getByRole("button", { name: "Change password" }).click();
    await expect.poll(() => page.getByText("You were signed out on 1 other device.").first().isVisible(), POLL).toBe(true);
    expect(await signedInStatus(there)).toBe(401);
    expect(await signedInStatus(here)).toBe(200);
    await otherPage.reload();
    await expect.poll(() => otherPage.getByRole("heading", { level: 1, name: "Sign In Required" }).isVisible(), POLL).toBe(true);
    page.assertClean(REFUSED);
    otherPage.assertClean(ENDED);
    await here.close();
    await there.close();
  });

  it("signs out everywhere else, and one device at a time", async () => {
    const here = await browser.newContext();
    const email = await newAccount(here);
    const contexts = [await browser.newContext(), await browser.newContext()];
    for (const context of contexts) await signIn(await newPage(context), server.url, email, PASSWORD, "/dashboard");
    const page = await newPage(here);
    await page.goto(`${server.url}/settings/security`);
    const others = page.getByRole("button", { name: /^Sign out .*, last active/ });
    await expect.poll(() => others.count(), POLL).toBe(2);
    await others.first().click();
    await expect.poll(() => others.count(), POLL).toBe(1);
    expect((await Promise.all(contexts.map(signedInStatus))).sort()).toEqual([200, 401]);
    await page.getByRole("button", { name: "Sign out everywhere else" }).click();
    await expect.poll(() => others.count(), POLL).toBe(0);
    expect(await Promise.all(contexts.map(signedInStatus))).toEqual([401, 401]);
    expect(await signedInStatus(here)).toBe(200);
    page.assertClean();
    for (const context of [here, ...contexts]) await context.close();
  });

  it("refuses an empty name under its field, then saves the new one (the rules load with the form: decision 041)", async () => {
    const context = await browser.newContext();
    await newAccount(context);
    const page = await newPage(context);
    await page.goto(`${server.url}/settings/profile`);
    const first = page.getByLabel("First name");
    await first.fill("");
    await page.getByRole("button", { name: "Save name" }).click();
    await expect.poll(() => first.getAttribute("aria-invalid"), POLL).toBe("true");
    await first.fill("Robin");
    await page.getByRole("button", { name: "Save name" }).click();
    await expect.poll(() => page.getByText("Your new name is shown across Errandly.").isVisible(), POLL).toBe(true);
    page.assertClean();
    await context.close();
  });

  it("downloads the data export as a JSON file", async () => {
    const context = await browser.newContext();
    const email = await newAccount(context);
    const page = await newPage(context);
    await page.goto(`${server.url}/settings/privacy`);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download my data" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^errandly-data-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse((await downloadedBody(download)).toString("utf8")) as { profile: { email: string }; sessions: unknown[] };
    expect(data.profile.email).toBe(email);
    expect(data.sessions.length).toBeGreaterThan(0);
    page.assertClean();
    await context.close();
  });

  it("deletes the account after the confirmation, signs out and says goodbye", async () => {
    const context = await browser.newContext();
    const email = await newAccount(context);
    const page = await newPage(context);
    await page.goto(`${server.url}/settings/privacy`);
    await page.getByRole("button", { name: "Delete my account" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete your account?" });
    await dialog.waitFor();
    expect(await dialog.getByText(/Your name becomes "Deleted user"/).isVisible()).toBe(true);
    await expectAxeClean(page);
    await dialog.getByLabel("Your password").fill("wrong password here");
    await dialog.getByRole("button", { name: "Delete my account for good" }).click();
    await expect.poll(() => dialog.getByText("Your password is not right").isVisible(), POLL).toBe(true);
    await dialog.getByLabel("Your password").fill(PASSWORD);
    await dialog.getByRole("button", { name: "Delete my account for good" }).click();
    await page.waitForURL(`${server.url}/goodbye`);
    await page.getByRole("heading", { level: 1, name: "Your account is deleted" }).waitFor();
    await expect.poll(() => page.getByTestId("sign-in-button").isVisible(), POLL).toBe(true);
    expect(await signedInStatus(context)).toBe(401);
    const again = await context.request.post(`${server.url}/api/auth/login`, { data: { email, password: PASSWORD }, headers: { origin: server.url } });
    expect(again.status()).toBe(401);
    page.assertClean([...ENDED, ...REFUSED]);
    await context.close();
  });

  it("shows the tabs on a 390 px screen without sideways scrolling, and at 1366 px", async () => {
    for (const width of [390, 1366]) {
      const context = await browser.newContext({ viewport: { width, height: 844 } });
      const page = await newPage(context);
      await signIn(page, server.url, DEMO.provider, DEMO.password, "/settings/profile");
      for (const tab of ["profile", "security", "notifications", "privacy"]) {
        await page.goto(`${server.url}/settings/${tab}`);
        await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
        await expect.poll(() => page.locator(".animate-spin, .animate-pulse").count(), { timeout: 15_000 }).toBe(0);
        expect(await page.getByRole("link", { name: "Privacy", exact: true }).first().isVisible()).toBe(true);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${tab} at ${width}px`).toBeLessThanOrEqual(0);
        await expectAxeClean(page);
        await page.screenshot({ path: join(SHOTS, `settings-${tab}-${width}.png`), fullPage: true });
      }
      page.assertClean(ENDED);
      await context.close();
    }
  });

  it("an approved provider's new photo waits for the admin, who approves it from the admin page", async () => {
    const providerContext = await browser.newContext();
    const provider = await newPage(providerContext);
    await signIn(provider, server.url, DEMO.provider, DEMO.password, "/settings/profile");
    await provider.getByRole("heading", { name: "Profile photo" }).waitFor();
    await provider.locator('input[type="file"]').setInputFiles({ name: "me.png", mimeType: "image/png", buffer: tinyPng() });
    await expect.poll(() => provider.getByText("waiting for an admin's approval").isVisible(), POLL).toBe(true);
    await expectAxeClean(provider);
    await provider.screenshot({ path: join(SHOTS, "settings-photo-pending-1366.png"), fullPage: true });

    const adminContext = await browser.newContext();
    const admin = await newPage(adminContext);
    await signIn(admin, server.url, DEMO.admin, DEMO.password, "/admin");
    await admin.getByRole("tab", { name: "Photo Changes" }).click();
    const approve = admin.getByRole("button", { name: "Approve photo" });
    await expect.poll(() => approve.count(), POLL).toBe(1);
    await expectAxeClean(admin);
    await admin.screenshot({ path: join(SHOTS, "admin-photo-changes-1366.png") });
    await approve.click();
    await expect.poll(() => admin.getByText("No photo changes waiting").isVisible(), POLL).toBe(true);

    await provider.reload();
    await expect.poll(() => provider.getByAltText("Your current profile photo").isVisible(), POLL).toBe(true);
    expect(await provider.getByText("waiting for an admin's approval").count()).toBe(0);
    provider.assertClean(ENDED);
    admin.assertClean(ENDED);
    await providerContext.close();
    await adminContext.close();
  });
});
