import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { dollarsToCents, formatDollarsExact, priceTask } from "../src/shared/money.js";
import { atBothWidths, DESKTOP, formatViolations, newPerson, PHONE, seriousAxeViolations, useSharedServer } from "./harness.js";

// Issue 29 in Chromium, each screen at a phone's and a desktop's width (docs/decisions/058-withdrawing-and-editing.md):
// a provider withdraws from a paid claim after a confirmation that names the refund, and the
// poster's open task page turns "Open" again and their bell says the refund; a poster edits the
// budget of an open task and sees the new total before and after saving.

const e2e = useSharedServer();

/** Someone new on the run's shared server, signed in at `width`. */
function personAt(width: number, role: "poster" | "provider") {
  return newPerson(e2e, role, "/", { viewport: { width, height: 900 } });
}

/** The screen at a phone's width and a desktop's: axe clean, nothing scrolling sideways. */
async function expectClean(page: Page, label: string) {
  await atBothWidths(page, async (width) => {
    const violations = await seriousAxeViolations(page);
    expect(violations, `${label} at ${width} px: ${formatViolations(violations)}`).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), `${label} at ${width} px`).toBe(true);
  });
}

async function postTask(poster: Page, title: string, budget: number) {
  return e2e.api<{ id: string; totalAmount: number }>(poster, "POST", "/api/tasks", {
    title,
    description: "Carry two boxes to the car",
    category: "errands",
    budget,
    location: "1 Main St",
    city: "Annapolis",
    state: "MD",
  });
}

describe("withdrawing and editing, each screen at 390 and 1366 px", () => {
  it("a provider withdraws from a paid claim; the poster sees the task open again and the refund", async () => {
    const width = PHONE.width;
    const poster = await personAt(width, "poster");
    const provider = await personAt(width, "provider");

    const title = `Withdraw check ${width} ${Date.now().toString(36)}`;
    const task = await postTask(poster, title, 40);
    await e2e.api(provider, "PATCH", `/api/tasks/${task.id}/claim`);
    await e2e.payByApi(poster, task);
    const refund = formatDollarsExact(dollarsToCents(task.totalAmount));

    await poster.goto(`${e2e.server.url}/task/${task.id}`);
    await expect.poll(() => poster.getByRole("heading", { name: title }).isVisible(), { timeout: 15_000 }).toBe(true);
    await provider.goto(`${e2e.server.url}/task/${task.id}`);
    const withdraw = provider.getByRole("button", { name: "Withdraw From Task" });
    await expect.poll(() => withdraw.isEnabled(), { timeout: 15_000 }).toBe(true);
    // An unpaid claim's way out is not offered beside it.
    expect(await provider.getByRole("button", { name: "Release My Claim" }).count()).toBe(0);

    await withdraw.click();
    const dialog = provider.getByRole("alertdialog").or(provider.getByRole("dialog"));
    await expect.poll(() => dialog.getByText(`${refund} will be refunded to the poster's card.`, { exact: false }).isVisible(), { timeout: 5_000 }).toBe(true);
    await expectClean(provider, "withdraw confirmation");
    await dialog.getByRole("button", { name: "Yes, withdraw" }).click();
    await expect.poll(() => provider.getByRole("button", { name: "Claim Task" }).isVisible(), { timeout: 10_000 }).toBe(true);

    // The poster's page follows without a reload: open again, theirs to cancel or edit.
    await expect.poll(() => poster.getByRole("button", { name: "Edit Task" }).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await poster.getByText("Open", { exact: true }).first().isVisible()).toBe(true);
    // The bell tells them, with the amount refunded.
    await poster.getByRole("button", { name: /^Notifications, [1-9]\d* unread$/ }).click();
    await expect
      .poll(() => poster.getByText(`${refund} was refunded to your card because the provider withdrew.`, { exact: false }).first().isVisible(), { timeout: 5_000 })
      .toBe(true);
    await expectClean(poster, "poster's notifications");
    for (const page of [poster, provider]) page.assertClean([/401 \(Unauthorized\)/]);
  });

  it("a poster edits the budget of an open task and sees the new total", async () => {
    const width = DESKTOP.width;
    const poster = await personAt(width, "poster");
    const title = `Edit check ${width} ${Date.now().toString(36)}`;
    const task = await postTask(poster, title, 40);
    const newTotal = formatDollarsExact(priceTask(8500, "standard").totalCents);

    await poster.goto(`${e2e.server.url}/task/${task.id}`);
    const editButton = poster.getByRole("button", { name: "Edit Task" });
    await expect.poll(() => editButton.isVisible(), { timeout: 15_000 }).toBe(true);
    await editButton.click();
    const dialog = poster.getByRole("dialog", { name: "Edit your task" });
    await expect.poll(() => dialog.isVisible(), { timeout: 10_000 }).toBe(true);

    // Below the minimum: the shared schema's message under the field, nothing sent.
    const budget = dialog.getByLabel("Budget ($)");
    await budget.fill("5");
    // The hint says the minimum before Save does.
    await expect.poll(() => dialog.getByText("Enter the budget in dollars, at least $20.").isVisible(), { timeout: 5_000 }).toBe(true);
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await expect.poll(() => dialog.getByText(/^Minimum budget is/).isVisible(), { timeout: 5_000 }).toBe(true);

    await budget.fill("85");
    await expect.poll(() => dialog.getByText(`You will pay ${newTotal} in total, fees included.`).isVisible(), { timeout: 5_000 }).toBe(true);
    await expectClean(poster, "edit dialog");
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await expect.poll(() => dialog.isVisible(), { timeout: 10_000 }).toBe(false);

    const box = poster.getByTestId("payment-box");
    await expect.poll(() => box.textContent(), { timeout: 10_000 }).toContain(newTotal);
    expect(await poster.getByText(/Edited /).first().isVisible()).toBe(true);
    await expectClean(poster, "edited task page");
    poster.assertClean([/401 \(Unauthorized\)/]);
  });
});
