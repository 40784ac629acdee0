import { request, type Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { applyThroughApi, atBothWidths, DEMO, formatViolations, newPage, PHONE, registerThroughApi, seriousAxeViolations, signIn, useServerAndBrowser } from "./harness.js";

// Background checks in Chromium (docs/product.md, Background checks; docs/decisions/064-background-checks.md),
// walked once, each screen checked at a phone's width and a desktop's: the applicant sees their check not started; the admin's
// Approve waits until they record a clear check by hand; then the applicant is approved and their
// public profile says "Background checked" with the month.

const POLL = { timeout: 15_000 };
const e2e = useServerAndBrowser();

async function pageAt(width: number) {
  return newPage(await e2e.browser.newContext({ viewport: { width, height: 900 } }));
}

/** The screen at a phone's width and a desktop's: axe clean, nothing scrolling sideways. */
async function expectClean(page: Page, label: string) {
  await atBothWidths(page, async (width) => {
    const violations = await seriousAxeViolations(page);
    expect(violations, `${label} at ${width} px: ${formatViolations(violations)}`).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), `${label} at ${width} px`).toBe(true);
  });
}

const visible = (page: Page, text: string | RegExp) => expect.poll(() => page.getByText(text).first().isVisible(), POLL).toBe(true);

describe("background checks", () => {
  it("the admin records a clear check and approves, and the profile says Background checked (each screen at 390 and 1366 px)", async () => {
    const width = PHONE.width;
    const email = `checked-${width}@example.test`;
    const password = "amber falcon ribbon 9";
    const api = await request.newContext({ baseURL: e2e.server.url, extraHTTPHeaders: { origin: e2e.server.url } });
    const applicant = await registerThroughApi(e2e.server, api, { email, firstName: "Casey", lastName: `Width${width}`, password });
    await applyThroughApi(api, email, { address: "9 Prince George St", city: "Annapolis", bio: "Careful and on time.", phone: "410-555-0150" });
    await api.dispose();

    // The applicant: the check is not started, and approval needs it.
    const person = await pageAt(width);
    await signIn(person, e2e.server.url, email, password, "/dashboard");
    await visible(person, "Background check: Not started.");
    await expectClean(person, `${width} applicant dashboard`);

    const admin = await pageAt(width);
    await signIn(admin, e2e.server.url, DEMO.admin, DEMO.password, "/admin");
    const card = admin.getByRole("article", { name: `Application from Casey Width${width}` });
    await expect.poll(() => card.isVisible(), POLL).toBe(true);
    expect(await card.getByRole("button", { name: "Approve" }).isDisabled()).toBe(true);
    await visible(admin, "Approval needs a clear background check.");
    await expectClean(admin, `${width} admin dashboard`);

    await card.getByRole("button", { name: "Record a check" }).click();
    const dialog = admin.getByRole("dialog", { name: "Record a background check" });
    await expect.poll(() => dialog.isVisible(), POLL).toBe(true);
    await dialog.getByLabel("What was checked").fill("County criminal records, MD, 7 years");
    await dialog.getByLabel("Result").selectOption("consider");
    // "Consider" asks what needs review: the applicant is told it.
    await expect.poll(() => dialog.getByLabel("What needs review").isVisible(), POLL).toBe(true);
    await dialog.getByLabel("Result").selectOption("clear");
    await expectClean(admin, `${width} record dialog`);
    await dialog.getByRole("button", { name: "Record check" }).click();
    await expect.poll(() => dialog.isVisible(), POLL).toBe(false);
    await visible(admin, "Check recorded");
    await expect.poll(() => card.getByText("Clear", { exact: true }).isVisible(), POLL).toBe(true);

    await card.getByRole("button", { name: "Approve" }).click();
    await visible(admin, "Application Approved");

    const month = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date());
    await person.goto(`${e2e.server.url}/users/${applicant.id}`);
    await visible(person, `Background checked ${month}`);
    await expectClean(person, `${width} public profile`);

    person.assertClean([/401 \(Unauthorized\)/]);
    admin.assertClean([/401 \(Unauthorized\)/]);
  });
});
