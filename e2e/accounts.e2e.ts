import { describe, expect, it } from "vitest";
import { DEMO, formatViolations, newPage, seriousAxeViolations, signIn, useServerAndBrowser } from "./harness.js";

const e2e = useServerAndBrowser();

describe("accounts", () => {
  it("signs up, signs out, signs in with returnTo, and refuses a wrong password", async () => {
    const context = await e2e.browser.newContext();
    const page = await newPage(context);
    await page.goto(`${e2e.server.url}/`);
    await page.getByTestId("sign-in-button").click();
    await page.waitForURL(/\/sign-in\?returnTo=%2F/);
    await page.getByRole("tab", { name: "Sign Up" }).click();
    await page.getByLabel("First name").fill("Erin");
    await page.getByLabel("Last name").fill("Walker");
    await page.getByLabel("Email").fill("erin@example.test");
    await page.getByLabel(/^Password/).fill("short");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect.poll(() => page.getByText("Password must be at least 10 characters: longer passwords are much harder to guess").isVisible()).toBe(true);
    await page.getByLabel(/^Password/).fill("amber falcon ribbon 9");
    await page.getByRole("button", { name: "Create Account" }).click();
    // Registering signs nobody in (the e-mailed link does; see account-recovery.e2e.ts): sign in
    // with the password, which works before the address is confirmed.
    await expect.poll(() => page.getByRole("heading", { name: "Check your inbox" }).isVisible(), { timeout: 15_000 }).toBe(true);
    await page.getByRole("tab", { name: "Sign In" }).click();
    await page.getByLabel("Email").fill("erin@example.test");
    await page.getByLabel(/^Password/).fill("amber falcon ribbon 9");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.waitForURL(`${e2e.server.url}/`);
    await expect.poll(() => page.getByLabel("Signed in as Erin Walker").isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: "Dashboard" }).first().isVisible()).toBe(true);

    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL(`${e2e.server.url}/`);
    await expect.poll(() => page.getByTestId("sign-in-button").isVisible()).toBe(true);

    await page.goto(`${e2e.server.url}/api/login?returnTo=${encodeURIComponent("/job-board")}`);
    await page.getByLabel("Email").fill("erin@example.test");
    await page.getByLabel(/^Password/).fill("wrong password!");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect.poll(() => page.getByText("Invalid email or password").isVisible()).toBe(true);
    await page.getByLabel(/^Password/).fill("amber falcon ribbon 9");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.waitForURL(`${e2e.server.url}/job-board`);
    page.assertClean([/401 \(Unauthorized\)/]);
    await context.close();
  });

  it("sign-up shows a strength meter, refuses a common password saying why, and shows the password on request", async () => {
    const context = await e2e.browser.newContext();
    const page = await newPage(context);
    await page.goto(`${e2e.server.url}/sign-in?mode=signup`);
    await page.getByLabel("First name").fill("Pia");
    await page.getByLabel("Last name").fill("Policy");
    await page.getByLabel("Email").fill("pia@example.test");
    const password = page.getByLabel(/^Password/);
    const meter = page.getByTestId("password-strength");
    await password.fill("password1234");
    await expect.poll(() => meter.textContent(), { timeout: 20_000 }).toMatch(/Password strength: Too weak.*similar to a commonly used password/);
    const violations = await seriousAxeViolations(page);
    expect(violations, formatViolations(violations)).toEqual([]);

    // The toggle shows the text, says its state, and hides it again.
    const toggle = page.getByRole("button", { name: "Show password" });
    expect(await password.getAttribute("type")).toBe("password");
    await toggle.click();
    expect(await password.getAttribute("type")).toBe("text");
    expect(await toggle.getAttribute("aria-pressed")).toBe("true");
    expect(await password.inputValue()).toBe("password1234");

    // The server refuses it too (the meter is advice; the server decides), and nothing is created.
    await page.getByRole("button", { name: "Create Account" }).click();
    const tooCommon = "This password is too common: choose one that is hard to guess, for example three or four unrelated words.";
    await expect.poll(() => page.getByText(tooCommon).isVisible(), { timeout: 20_000 }).toBe(true);
    expect(new URL(page.url()).pathname).toBe("/sign-in");

    await password.fill("orchid kettle planet");
    await expect.poll(() => meter.textContent(), { timeout: 20_000 }).toMatch(/Password strength: Strong/);
    await toggle.click();
    expect(await password.getAttribute("type")).toBe("password");
    await page.getByRole("button", { name: "Create Account" }).click();
    // Accepted: registering ends on "check your inbox" (account-recovery.e2e.ts follows the link).
    await expect.poll(() => page.getByRole("heading", { name: "Check your inbox" }).isVisible(), { timeout: 20_000 }).toBe(true);
    page.assertClean([/400 \(Bad Request\)/, /401 \(Unauthorized\)/]);
    await context.close();
  });

  it("sends an absolute returnTo home instead", async () => {
    const context = await e2e.browser.newContext();
    const page = await newPage(context);
    await signIn(page, e2e.server.url, DEMO.poster, DEMO.password, "/");
    await page.goto(`${e2e.server.url}/api/login?returnTo=${encodeURIComponent("https://evil.example/")}`);
    await page.waitForURL(/returnTo=%2F$/);
    await context.close();
  });

  it("keeps the theme over a reload, without a flash", async () => {
    const context = await e2e.browser.newContext();
    const page = await newPage(context);
    await page.goto(`${e2e.server.url}/`);
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(false);
    await page.getByTestId("theme-toggle").first().click();
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");
    await page.reload({ waitUntil: "commit" });
    await page.waitForSelector("html.dark", { state: "attached", timeout: 5000 });
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await context.close();
  });

  it("shows the 404 page for an unknown path", async () => {
    const context = await e2e.browser.newContext();
    const page = await newPage(context);
    await page.goto(`${e2e.server.url}/no/such/page`);
    await expect.poll(() => page.getByRole("heading", { name: "Page Not Found" }).isVisible()).toBe(true);
    const violations = await seriousAxeViolations(page);
    expect(violations, formatViolations(violations)).toEqual([]);
    await page.getByRole("link", { name: "Go Home" }).click();
    await page.waitForURL(`${e2e.server.url}/`);
    page.assertClean([/401 \(Unauthorized\)/]);
    await context.close();
  });
});
