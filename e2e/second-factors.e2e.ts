import { describe, expect, it } from "vitest";
import pg from "pg";
import { formatViolations, latestMailLink, newPage, seriousAxeViolations, signIn, totpCode, useServerAndBrowser } from "./harness.js";

// Second factors in Chromium (docs/decisions/049-second-factors.md, 050-step-up-and-security-log.md):
// an authenticator app added in settings and asked for at sign-in; a passkey (the DevTools
// protocol's virtual authenticator) added, then used alone and as the second step; the step-up
// prompt before a sensitive change, which then goes on. Axe clean at 390 and 1366 px.

const e2e = useServerAndBrowser();
const PASSWORD = "quiet walnut harbor 7";
// A refused code or a stale proof answers 401 or 403, which the browser logs.
const REFUSED = [/40[13] \(/];

let people = 0;
async function newAccount(width: number) {
  people += 1;
  const email = `factors${people}-${Date.now()}@example.test`;
  const context = await e2e.browser.newContext({ viewport: { width, height: 900 } });
  const res = await context.request.post(`${e2e.server.url}/api/auth/register`, {
    data: { email, password: PASSWORD, firstName: "Fay", lastName: `Factor${people}` },
    headers: { origin: e2e.server.url },
  });
  expect(res.status()).toBe(202);
  // Only a verified address adds a factor (docs/decisions/067-planted-credentials-go-at-verification.md):
  // the person opens their link first, in the browser that signed up.
  const token = new URL(await latestMailLink(e2e.server, email, "/verify-email")).searchParams.get("token");
  const verified = await context.request.post(`${e2e.server.url}/api/auth/verify-email`, { data: { token }, headers: { origin: e2e.server.url } });
  expect(verified.status()).toBe(200);
  const page = await newPage(context);
  await signIn(page, e2e.server.url, email, PASSWORD, "/settings/security");
  return { email, context, page };
}

async function expectAxeClean(page: Awaited<ReturnType<typeof newPage>>) {
  const violations = await seriousAxeViolations(page);
  expect(violations, formatViolations(violations)).toEqual([]);
}

describe("second factors", () => {
  for (const width of [390, 1366]) {
    it(`an authenticator app is added with its key and asked for at sign-in (${width} px)`, async () => {
      const { email, context, page } = await newAccount(width);
      await page.getByRole("button", { name: "Add an authenticator app" }).click();
      await expect.poll(() => page.getByRole("img", { name: "QR code for your authenticator app" }).isVisible()).toBe(true);
      const secret = (await page.locator("code").first().textContent()) ?? "";
      await expectAxeClean(page);
      await page.getByLabel("Code from the app").fill(totpCode(secret));
      await page.getByRole("button", { name: "Confirm the app" }).click();
      const codes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
      await expect.poll(() => codes.count()).toBe(10);
      await expectAxeClean(page);
      await page.getByRole("button", { name: "I saved them" }).click();

      await context.clearCookies();
      await page.goto(`${e2e.server.url}/api/login?returnTo=%2Fdashboard`);
      await page.getByLabel("Email").fill(email);
      await page.getByLabel(/^Password/).fill(PASSWORD);
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await page.waitForURL((u) => u.pathname === "/sign-in/second-step");
      await expectAxeClean(page);
      // The enrolment used this step's code; the next step's is accepted (one step of drift).
      await page.getByLabel("Code").fill(totpCode(secret, 1));
      await page.getByRole("button", { name: "Confirm", exact: true }).click();
      await page.waitForURL((u) => u.pathname === "/dashboard");
      page.assertClean(REFUSED);
      await context.close();
    });
  }

  it("a passkey is added, signs in alone, then serves as the second step; the step-up prompt lets a change go on", async () => {
    const { email, context, page } = await newAccount(1366);
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });

    await page.getByLabel("Passkey name").fill("Test laptop");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await expect.poll(() => page.getByRole("list", { name: "Your passkeys" }).getByText("Test laptop").isVisible()).toBe(true);
    await page.getByRole("button", { name: "I saved them" }).click();
    await expectAxeClean(page);

    // Signed out, in with the passkey alone.
    await context.clearCookies();
    await page.goto(`${e2e.server.url}/sign-in?returnTo=%2Fdashboard`);
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.waitForURL((u) => u.pathname === "/dashboard");
    const me = (await (await context.request.get(`${e2e.server.url}/api/auth/user`)).json()) as { email: string };
    expect(me.email).toBe(email);

    // Signed out, the password, then the passkey as the second step.
    await context.clearCookies();
    await page.goto(`${e2e.server.url}/api/login?returnTo=%2Fsettings%2Fsecurity`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/sign-in/second-step");
    await page.getByRole("button", { name: "Use a passkey" }).click();
    await page.waitForURL((u) => u.pathname === "/settings/security");
    const sessions = (await (await context.request.get(`${e2e.server.url}/api/account/sessions`)).json()) as { current: boolean; proof: string }[];
    expect(sessions.find((s) => s.current)?.proof).toBe("Password and passkey");

    // The proof is stale (the server's record of it is moved back, as if minutes passed): removing
    // the passkey asks to confirm it is you, then goes on.
    const db = new pg.Client({ connectionString: e2e.server.databaseUrl });
    await db.connect();
    await db.query(`update sessions set proven_at = now() - interval '10 minutes'`);
    await db.end();
    await page.getByRole("button", { name: "Remove passkey Test laptop" }).click();
    await expect.poll(() => page.getByRole("dialog", { name: "Confirm it is you" }).isVisible()).toBe(true);
    await expectAxeClean(page);
    await page.getByLabel("Your password").fill(PASSWORD);
    await page.getByRole("button", { name: "Confirm", exact: true }).click();
    await expect.poll(() => page.getByRole("list", { name: "Your passkeys" }).count()).toBe(0);
    page.assertClean(REFUSED);
    await context.close();
  });
});
