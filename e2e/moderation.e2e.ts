import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { SUSPENDED_SIGN_IN_MESSAGE } from "../src/shared/moderation.js";
import { DEMO, formatViolations, newPage, seriousAxeViolations, signIn, useServerAndBrowser } from "./harness.js";

// Moderation in Chromium (docs/product.md, Moderation; docs/decisions/059-moderation.md): the report
// dialog at a phone's width; then at a desktop's, a poster reports a task, an admin removes it from
// /admin/reports after a confirmation, its poster is told, and an admin suspends that person, whose
// session ends and whose sign-in is refused with the reason.

const e2e = useServerAndBrowser();

async function pageAt(width: number) {
  return newPage(await e2e.browser.newContext({ viewport: { width, height: 900 } }));
}

async function expectClean(page: Page, label: string) {
  const violations = await seriousAxeViolations(page);
  expect(violations, `${label}: ${formatViolations(violations)}`).toEqual([]);
  // Nothing scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), label).toBe(true);
}

/** The demo provider posts a task the demo poster can report (one's own cannot be). */
async function providerTask(provider: Page, title: string) {
  return e2e.api<{ id: string }>(provider, "POST", "/api/tasks", {
    title,
    description: "Bring cash only and do not ask questions about the parcel",
    category: "errands",
    budget: 40,
    location: "1 Main St",
    city: "Annapolis",
    state: "MD",
  });
}

/** Opens the task page's Report dialog, fills it, checks it, and sends it. */
async function reportTask(poster: Page, taskId: string, title: string, details: string, label: string) {
  await poster.goto(`${e2e.server.url}/task/${taskId}`);
  await expect.poll(() => poster.getByRole("heading", { name: title }).isVisible(), { timeout: 15_000 }).toBe(true);
  const report = poster.getByRole("button", { name: "Report", exact: true });
  await expect.poll(() => report.isVisible(), { timeout: 10_000 }).toBe(true);
  await report.click();
  const dialog = poster.getByRole("dialog", { name: "Report this task" });
  await expect.poll(() => dialog.isVisible(), { timeout: 5_000 }).toBe(true);
  await dialog.getByLabel(/^Reason/).selectOption("scam");
  await dialog.getByLabel(/^What happened/).fill(details);
  await expectClean(poster, label);
  await dialog.getByRole("button", { name: "Send report" }).click();
  await expect.poll(() => dialog.isVisible(), { timeout: 10_000 }).toBe(false);
  await expect.poll(() => poster.getByText("Report sent").first().isVisible(), { timeout: 5_000 }).toBe(true);
}

describe("moderation", () => {
  it("at 390 px, the report dialog fits and is clean", async () => {
    const poster = await pageAt(390);
    const provider = await pageAt(390);
    await signIn(poster, e2e.server.url, DEMO.poster, DEMO.password, "/");
    await signIn(provider, e2e.server.url, DEMO.provider, DEMO.password, "/");
    const title = `Report check 390 ${Date.now().toString(36)}`;
    const task = await providerTask(provider, title);
    await reportTask(poster, task.id, title, "This asks for cash and hides what is carried.", "report dialog at 390 px");
    for (const page of [poster, provider]) page.assertClean([/401 \(Unauthorized\)/]);
  });

  it("at 1366 px, an admin removes a reported task, its poster is told, and a suspension ends the session", async () => {
    const poster = await pageAt(1366);
    const provider = await pageAt(1366);
    const admin = await pageAt(1366);
    await signIn(poster, e2e.server.url, DEMO.poster, DEMO.password, "/");
    await signIn(provider, e2e.server.url, DEMO.provider, DEMO.password, "/");
    const title = `Removal check ${Date.now().toString(36)}`;
    const task = await providerTask(provider, title);
    const details = `Cash only and a secret parcel ${Date.now().toString(36)}`;
    await reportTask(poster, task.id, title, details, "report dialog at 1366 px");

    // The admin's queue shows the report with its task; removing asks first and says what happens.
    await signIn(admin, e2e.server.url, DEMO.admin, DEMO.password, "/admin/reports");
    const card = admin.locator("div", { has: admin.getByText(details) }).filter({ has: admin.getByRole("button", { name: "Remove task" }) }).last();
    await expect.poll(() => card.isVisible(), { timeout: 15_000 }).toBe(true);
    await expectClean(admin, "reports queue");
    await card.getByRole("button", { name: "Remove task" }).click();
    const confirm = admin.getByRole("dialog", { name: "Remove this task" });
    await expect.poll(() => confirm.isVisible(), { timeout: 5_000 }).toBe(true);
    expect(await confirm.getByText("The task is unpaid: no money moves.").isVisible()).toBe(true);
    await confirm.getByLabel(/^Reason/).fill("Asks for cash for an unknown parcel.");
    await expectClean(admin, "remove confirmation");
    await confirm.getByRole("button", { name: "Remove task" }).click();
    await expect.poll(() => confirm.isVisible(), { timeout: 10_000 }).toBe(false);

    // The task's poster is told, with the reason, in their bell.
    await provider.goto(`${e2e.server.url}/dashboard`);
    await provider.getByRole("button", { name: /^Notifications, [1-9]\d* unread$/ }).click();
    await expect.poll(() => provider.getByText(/Asks for cash for an unknown parcel/).first().isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await e2e.api<{ status: string }>(provider, "GET", `/api/tasks/${task.id}`)).toMatchObject({ status: "cancelled" });

    // Suspending the same person, from the same card: signed out at once, and sign-in refused with the reason.
    await admin.reload();
    const again = admin.locator("div", { has: admin.getByText(details) }).filter({ has: admin.getByRole("button", { name: "Suspend account" }) }).last();
    await expect.poll(() => again.isVisible(), { timeout: 15_000 }).toBe(true);
    await again.getByRole("button", { name: "Suspend account" }).click();
    const suspend = admin.getByRole("dialog", { name: /^Suspend / });
    await expect.poll(() => suspend.isVisible(), { timeout: 5_000 }).toBe(true);
    await suspend.getByLabel(/^Reason/).fill("Repeated scam postings.");
    await expectClean(admin, "suspend confirmation");
    await suspend.getByRole("button", { name: "Suspend account" }).click();
    await expect.poll(() => suspend.isVisible(), { timeout: 10_000 }).toBe(false);
    // The dialog closes at the press; the toast says when the suspension is done.
    await expect.poll(() => admin.getByText("Suspend account: done").first().isVisible(), { timeout: 10_000 }).toBe(true);

    const session = await provider.request.get(`${e2e.server.url}/api/auth/user`);
    expect(await session.json()).toBeNull();
    await provider.context().clearCookies();
    await provider.goto(`${e2e.server.url}/api/login`);
    await provider.getByLabel("Email").fill(DEMO.provider);
    await provider.getByLabel(/^Password/).fill(DEMO.password);
    await provider.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect.poll(() => provider.getByText(SUSPENDED_SIGN_IN_MESSAGE, { exact: false }).first().isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await provider.getByText("Repeated scam postings.", { exact: false }).first().isVisible()).toBe(true);
    await expectClean(provider, "refused sign-in");
    for (const page of [poster, admin]) page.assertClean([/401 \(Unauthorized\)/]);
    provider.assertClean([/401 \(Unauthorized\)/, /403 \(Forbidden\)/]);
  });
});
