import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { atBothWidths, DESKTOP, formatViolations, latestMailLink, newPage, PHONE, seriousAxeViolations, useServerAndBrowser } from "./harness.js";

// The e-mailed links as a new person meets them (issue 27, item 13; docs/product.md, Accounts:
// recovery and verification): the verification link says which address it confirmed and leads
// back to where the person was going; a password refused by the server does not stay above a meter
// that says Strong; a used reset link says so before a password is typed. Each journey walked once;
// each screen axe clean at 390 and 1366 px.

const POLL = { timeout: 15_000 };

const e2e = useServerAndBrowser();

/** The screen at a phone's width and a desktop's, axe clean. */
async function expectNoSeriousViolations(page: Page) {
  await atBothWidths(page, async (width) => {
    const violations = await seriousAxeViolations(page);
    expect(violations, `at ${width} px: ${formatViolations(violations)}`).toEqual([]);
  });
}

const visible = (page: Page, text: string | RegExp) => expect.poll(() => page.getByText(text).first().isVisible(), POLL).toBe(true);

async function fillSignUp(page: Page, email: string, password: string) {
  await page.getByRole("tab", { name: "Sign Up" }).click();
  await page.getByLabel("First name").fill("Wren");
  await page.getByLabel("Last name").fill("Width");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole("button", { name: "Create Account" }).click();
}

describe("sign-up and reset links, each screen at 390 and 1366 px", () => {
  it("confirms the address by name and leads back to the provider application", async () => {
    const width = PHONE.width;
    const context = await e2e.browser.newContext({ viewport: { width, height: 844 } });
    const page = await newPage(context);
    const email = `wren-${width}@example.test`;
    await page.goto(`${e2e.server.url}/become-provider`);
    await page.waitForURL(/\/sign-in\?returnTo=%2Fbecome-provider/, POLL);
    await fillSignUp(page, email, "password1234");
    // The server refuses a common password; typing a strong one clears that refusal.
    await visible(page, /This password is too common/);
    await page.getByLabel(/^Password/).fill("lantern mosaic quarry thistle");
    await visible(page, "Strong");
    expect(await page.getByText(/This password is too common/).count()).toBe(0);
    await expectNoSeriousViolations(page);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect.poll(() => page.getByRole("heading", { name: "Check your inbox" }).isVisible(), POLL).toBe(true);

    await page.goto(await latestMailLink(e2e.server, email, "/verify-email"));
    await visible(page, `${email} is confirmed as your address, and you are signed in.`);
    await expectNoSeriousViolations(page);
    await page.getByRole("link", { name: "Continue your provider application" }).click();
    await page.waitForURL(`${e2e.server.url}/become-provider`, POLL);
    // Signed in (the header's name sits in the menu on a phone, so ask the API as the page does).
    const me = await page.evaluate(async () => (await fetch("/api/auth/user")).json() as Promise<{ email: string; emailVerified: boolean }>);
    expect(me).toMatchObject({ email, emailVerified: true });
    await context.close();
  });

  it("says a used reset link is used before any password is typed, and offers a new one", async () => {
    const width = DESKTOP.width;
    const context = await e2e.browser.newContext({ viewport: { width, height: 844 } });
    const page = await newPage(context);
    const email = `reset-${width}@example.test`;
    await page.goto(`${e2e.server.url}/sign-in`);
    await fillSignUp(page, email, "harbor velvet sparrow lantern");
    await expect.poll(() => page.getByRole("heading", { name: "Check your inbox" }).isVisible(), POLL).toBe(true);
    await page.goto(`${e2e.server.url}/forgot-password`);
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send me a reset link" }).click();
    await visible(page, /If an account exists for that address, we sent it a link/);
    const link = await latestMailLink(e2e.server, email, "/reset-password");

    await page.goto(link);
    await page.getByLabel("New password").fill("quarry nimbus trellis juniper");
    await page.getByRole("button", { name: "Set new password and sign in" }).click();
    await page.waitForURL(`${e2e.server.url}/dashboard`, POLL);

    await page.goto(link);
    await visible(page, "This reset link has expired or was already used.");
    expect(await page.getByLabel("New password").count()).toBe(0);
    expect(await page.getByRole("link", { name: "Send me a new link" }).isVisible()).toBe(true);
    await expectNoSeriousViolations(page);
    page.assertClean([/400 \(Bad Request\)/, /401 \(Unauthorized\)/]);
    await context.close();
  });
});
