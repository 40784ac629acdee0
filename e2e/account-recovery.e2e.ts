import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { formatViolations, latestMailLink, newPage, seriousAxeViolations, useServerAndBrowser } from "./harness.js";

// Forgot password through the e-mailed link, and sign-up through the verification link
// (docs/product.md, Accounts: recovery and verification). "Opening the e-mail" reads the outbox.

const POLL = { timeout: 15_000 };

const e2e = useServerAndBrowser();

async function expectNoSeriousViolations(page: Page) {
  const violations = await seriousAxeViolations(page);
  expect(violations, formatViolations(violations)).toEqual([]);
}

const visible = (page: Page, text: string | RegExp) => expect.poll(() => page.getByText(text).first().isVisible(), POLL).toBe(true);

async function signUp(page: Page, email: string, password: string) {
  await page.goto(`${e2e.server.url}/sign-in?mode=signup`);
  await page.getByLabel("First name").fill("Vera");
  await page.getByLabel("Last name").fill("Link");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect.poll(() => page.getByRole("heading", { name: "Check your inbox" }).isVisible(), POLL).toBe(true);
  await visible(page, `Check your inbox: we sent a link to ${email} to finish signing up.`);
}

describe("account recovery and verification", () => {
  it("signs up, shows 'check your inbox', opens the verify link, and is signed in with the banner gone", async () => {
    const context = await e2e.browser.newContext();
    const page = await newPage(context);
    await signUp(page, "vera@example.test", "tangerine glacier whistle 4");
    await expectNoSeriousViolations(page);
    // Nobody is signed in by registering.
    expect(await page.getByTestId("sign-in-button").first().isVisible()).toBe(true);

    await page.goto(await latestMailLink(e2e.server, "vera@example.test", "/verify-email"));
    await visible(page, "vera@example.test is confirmed as your address, and you are signed in.");
    await page.getByRole("link", { name: "Go to your dashboard" }).click();
    await page.waitForURL(`${e2e.server.url}/dashboard`, POLL);
    await expect.poll(() => page.getByLabel("Signed in as Vera Link").isVisible(), POLL).toBe(true);
    expect(await page.getByRole("region", { name: "Confirm your e-mail address" }).count()).toBe(0);

    // The link worked once: opening it again says so in plain words.
    await page.goto(await latestMailLink(e2e.server, "vera@example.test", "/verify-email"));
    await visible(page, "This link has expired or was already used");
    await expectNoSeriousViolations(page);
    page.assertClean([/400 \(Bad Request\)/, /401 \(Unauthorized\)/]);
    await context.close();
  });

  it("an unverified person who signs in with the password sees the banner and can resend the link", async () => {
    const context = await e2e.browser.newContext();
    const page = await newPage(context);
    await signUp(page, "ursula@example.test", "pebble lighthouse mosaic 8");
    await page.getByRole("tab", { name: "Sign In" }).click();
    await page.getByLabel("Email").fill("ursula@example.test");
    await page.getByLabel(/^Password/).fill("pebble lighthouse mosaic 8");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.waitForURL(`${e2e.server.url}/`, POLL);
    const banner = page.getByRole("region", { name: "Confirm your e-mail address" });
    await expect.poll(() => banner.isVisible(), POLL).toBe(true);
    await banner.getByRole("button", { name: "Resend the link" }).click();
    await visible(page, "We sent a new link to ursula@example.test. It works for 24 hours.");
    await expectNoSeriousViolations(page);
    await context.close();
  });

  it("forgot password: asks for a link, opens the e-mail, sets a new password and is signed in", async () => {
    const context = await e2e.browser.newContext();
    const page = await newPage(context);
    await signUp(page, "remy@example.test", "walnut comet prairie 3");
    await page.goto(await latestMailLink(e2e.server, "remy@example.test", "/verify-email"));
    await page.getByRole("link", { name: "Go to your dashboard" }).click();
    await page.waitForURL(`${e2e.server.url}/dashboard`, POLL);
    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL(`${e2e.server.url}/`, POLL);

    await page.goto(`${e2e.server.url}/sign-in`);
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.waitForURL(`${e2e.server.url}/forgot-password`, POLL);
    await page.getByLabel("Email").fill("remy@example.test");
    await page.getByRole("button", { name: "Send me a reset link" }).click();
    await visible(page, /If an account exists for that address, we sent it a link/);
    await expectNoSeriousViolations(page);

    await page.goto(await latestMailLink(e2e.server, "remy@example.test", "/reset-password"));
    await expect.poll(() => page.getByRole("heading", { name: "Choose a new password" }).isVisible(), POLL).toBe(true);
    await expectNoSeriousViolations(page);
    await page.getByLabel("New password").fill("harbor velvet sparrow 5");
    await page.getByRole("button", { name: "Set new password and sign in" }).click();
    await page.waitForURL(`${e2e.server.url}/dashboard`, POLL);
    await expect.poll(() => page.getByLabel("Signed in as Vera Link").isVisible(), POLL).toBe(true);

    // The used link explains itself up front and offers a new one.
    await page.goto(await latestMailLink(e2e.server, "remy@example.test", "/reset-password"));
    await visible(page, "This reset link has expired or was already used");
    expect(await page.getByRole("link", { name: "Send me a new link" }).isVisible()).toBe(true);
    page.assertClean([/400 \(Bad Request\)/, /401 \(Unauthorized\)/]);
    await context.close();
  });
});
