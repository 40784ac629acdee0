import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startFakeOidcProvider, type FakeOidcProvider } from "../test/fakes/fake-oidc-provider.js";
import { DEMO, formatViolations, connectBrowser, newPage, seriousAxeViolations, startServer, type RunningServer } from "./harness.js";

// Single sign-on through a real browser: the sign-in page's button, the provider round trip
// (the fake provider approves at once), landing on returnTo signed in, and the error path.

let provider: FakeOidcProvider;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  provider = await startFakeOidcProvider({ id: "errandly", secret: "e2e-secret" });
  server = await startServer({ OIDC_ISSUER_URL: provider.issuer, OIDC_CLIENT_ID: "errandly", OIDC_CLIENT_SECRET: "e2e-secret" });
  browser = await connectBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await provider?.close();
});

describe("single sign-on", () => {
  it("signs a new person in through the provider and lands on returnTo", async () => {
    const context = await browser.newContext();
    const page = await newPage(context);

    provider.signInAs({ sub: "e2e-1", email: "sso.person@example.test", email_verified: true, given_name: "Sam", family_name: "Ortiz" });
    await page.goto(`${server.url}/api/login?returnTo=${encodeURIComponent("/job-board")}`);
    const sso = page.getByRole("link", { name: "Continue with single sign-on" });
    await sso.waitFor();
    expect(await page.getByRole("button", { name: "Sign In", exact: true }).isVisible()).toBe(true);
    const light = await seriousAxeViolations(page);
    expect(light, formatViolations(light)).toEqual([]);
    await sso.click();
    await page.waitForURL(`${server.url}/job-board`);
    await page.getByLabel("Signed in as Sam Ortiz").waitFor();
    page.assertClean([/401 \(Unauthorized\)/]);
    await context.close();
  });

  it("refuses an IdP that does not vouch for the e-mail of a local account, with a clear message", async () => {
    const context = await browser.newContext();
    const page = await newPage(context);
    // The demo poster has a local account; an IdP that does not vouch for the address cannot take it over.
    provider.signInAs({ sub: "e2e-2", email: DEMO.poster, email_verified: false });
    await page.goto(`${server.url}/sign-in?returnTo=${encodeURIComponent("/dashboard")}`);
    await page.getByRole("link", { name: "Continue with single sign-on" }).click();
    await page.waitForURL(`${server.url}/sign-in?error=oidc`);
    await page.getByText("Single sign-on did not work.", { exact: false }).waitFor();
    await page.getByTestId("theme-toggle").first().click();
    await page.waitForSelector("html.dark", { state: "attached" });
    const dark = await seriousAxeViolations(page);
    expect(dark, formatViolations(dark)).toEqual([]);
    page.assertClean([/401 \(Unauthorized\)/]);
    await context.close();
  });
});
