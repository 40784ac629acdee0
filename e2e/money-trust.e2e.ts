import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { atBothWidths, formatViolations, newPage, posterAndProvider, seriousAxeViolations, tasksOnMap, useServerAndBrowser, watchLayoutShifts, type TestPage } from "./harness.js";
import { parcelPickup } from "../test/fixtures/task-bodies.js";

// No surprises with money (docs/decisions/024-declining-a-provider.md, docs/product.md): the poster
// sees who claimed and declines them; the provider is told and cannot claim again; every
// money-moving action asks first with its amount; a paid task cancelled shows the refund to the
// poster, tells the provider and closes the chat.

const e2e = useServerAndBrowser();
let poster: TestPage;
let provider: TestPage;

const POLL = { timeout: 15_000 };
/** A refused claim (409) and the signed-out user call at sign-in are logged by the e2e.browser. */
const EXPECTED = [/409 \(Conflict\)/, /401 \(Unauthorized\)/];

beforeAll(async () => {
  ({ poster, provider } = await posterAndProvider(e2e));
});

async function postTask(title: string, budget: number): Promise<{ id: string; totalAmount: number }> {
  return e2e.api(poster, "POST", "/api/tasks", parcelPickup(title, { budget }));
}

async function expectAxeClean(page: Page): Promise<void> {
  expect(formatViolations(await seriousAxeViolations(page))).toBe("");
}

/**
 * The page at phone (390 px) and desktop (1366 px) width: nothing scrolls sideways. With
 * E2E_SCREENSHOTS=<dir> each width is also saved as <dir>/<name>-<width>.png for a look.
 */
async function noSidewaysAtBothWidths(page: Page, name: string): Promise<void> {
  await atBothWidths(page, async (width) => {
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), POLL).toBe(true);
    const dir = process.env.E2E_SCREENSHOTS;
    if (dir) await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  });
}

const dialog = (page: Page, name: string | RegExp) => page.getByRole("alertdialog", { name });

async function notificationsText(page: Page): Promise<string> {
  await page.getByRole("button", { name: /^Notifications/ }).click();
  const panel = page.getByRole("dialog", { name: "Notifications" });
  await panel.waitFor({ state: "visible" });
  const text = await panel.innerText();
  await page.keyboard.press("Escape");
  return text;
}

describe("money trust", () => {
  it("claim, the poster sees the claimer and declines, the provider is told and cannot claim again", async () => {
    const task = await postTask("Return library books", 30);
    await provider.goto(`${e2e.server.url}/task/${task.id}`);
    // The provider reads their take-home pay, not the poster's total.
    await expect.poll(() => provider.getByTestId("payment-box").innerText(), POLL).toContain("$25.50");
    await noSidewaysAtBothWidths(provider, "provider-earnings");
    expect(await provider.getByTestId("payment-box").innerText()).not.toContain("Service Fee");
    await provider.getByRole("button", { name: "Claim Task" }).click();
    const claim = dialog(provider, "Claim this task?");
    await expect.poll(() => claim.innerText(), POLL).toContain("You'll earn $25.50. The poster has 30 minutes to pay; you can start once they do.");
    await noSidewaysAtBothWidths(provider, "claim-dialog");
    await expectAxeClean(provider);
    await claim.getByRole("button", { name: "Yes, claim it" }).click();
    await expect.poll(() => provider.getByText("Task claimed successfully!").first().isVisible(), POLL).toBe(true);

    const { provider: card } = await e2e.api<{ provider: { id: string; displayName: string } | null }>(poster, "GET", `/api/tasks/${task.id}`);
    if (!card) throw new Error("the poster got no provider card");
    await poster.goto(`${e2e.server.url}/task/${task.id}`);
    const claimedBy = poster.getByTestId("claimed-by-card");
    await expect.poll(() => claimedBy.isVisible(), POLL).toBe(true);
    expect(await claimedBy.getByRole("link", { name: card.displayName }).getAttribute("href")).toBe(`/users/${card.id}`);
    expect(await claimedBy.innerText()).toMatch(/completed tasks?/);
    await noSidewaysAtBothWidths(poster, "claimed-by");
    expect(await notificationsText(poster)).toContain(`claimed by ${card.displayName}`);
    await expectAxeClean(poster);

    await claimedBy.getByRole("button", { name: "Decline This Provider" }).click();
    const decline = dialog(poster, `Decline ${card.displayName}?`);
    await expect.poll(() => decline.innerText(), POLL).toContain("cannot claim this task again");
    await expectAxeClean(poster);
    await decline.getByRole("button", { name: "Yes, decline" }).click();
    await expect.poll(() => poster.getByText("Provider Declined").first().isVisible(), POLL).toBe(true);
    await expect.poll(() => poster.getByTestId("claimed-by-card").count(), POLL).toBe(0);

    // The task is open again for everyone but this provider: not on their board, no Claim on its
    // page, and the page and the notice say plainly that the poster declined them.
    await provider.goto(`${e2e.server.url}/job-board`);
    // The notice's words (and that it is not "chose another provider") are decline-provider.test.ts's.
    await expect.poll(() => notificationsText(provider), POLL).toContain("The poster declined your claim");
    await expect.poll(() => provider.getByTestId("job-card").count(), POLL).toBeGreaterThan(0);
    // The server-rendered board is everyone's; the provider's page leaves the task out once it knows
    // which tasks declined them (decision 024).
    await expect.poll(() => provider.getByRole("heading", { name: "Return library books" }).count(), POLL).toBe(0);
    await expectAxeClean(provider);
    await provider.goto(`${e2e.server.url}/task/${task.id}`);
    const declinedNote = provider.getByText("The poster declined your claim on this task. You can claim other tasks on the job board.");
    await expect.poll(() => declinedNote.isVisible(), POLL).toBe(true);
    expect(await provider.getByRole("button", { name: "Claim Task" }).count()).toBe(0);
    await expectAxeClean(provider);
    // The server refusing the claim, the task open again with no provider and still on everyone
    // else's board: src/server/features/tasks/decline-provider.test.ts. The map leaves it out for
    // this provider too: the poster's map shows every placed open task, this one included (its
    // typed address is placed), and the provider's one fewer.
    const board = await e2e.api<{ id: string; approxLat: number | null }[]>(poster, "GET", "/api/tasks/open?pageSize=100");
    const placed = board.filter((t) => t.approxLat !== null);
    expect(placed.some((t) => t.id === task.id)).toBe(true);
    await poster.goto(`${e2e.server.url}/job-board?view=map`);
    await expect.poll(() => tasksOnMap(poster), POLL).toBe(placed.length);
    await provider.goto(`${e2e.server.url}/job-board?view=map`);
    await expect.poll(() => tasksOnMap(provider), POLL).toBe(placed.length - 1);
    poster.assertClean(EXPECTED);
    provider.assertClean(EXPECTED);
  });

  it("earnings follow the ledger, read as cards on a phone, and the pages do not jump", async () => {
    // The cases: a $120 task paid and then cancelled by its poster, and a task whose
    // poster approved the release before the 24-hour window ended.
    const refunded = await postTask("Carry groceries upstairs", 120);
    await e2e.api(provider, "PATCH", `/api/tasks/${refunded.id}/claim`);
    await e2e.payByApi(poster, refunded);
    await e2e.api(poster, "PATCH", `/api/tasks/${refunded.id}/cancel`);
    const early = await postTask("Assemble a standing desk", 150);
    await e2e.api(provider, "PATCH", `/api/tasks/${early.id}/claim`);
    await e2e.payByApi(poster, early);
    await e2e.api(provider, "PATCH", `/api/tasks/${early.id}/start`);
    await e2e.api(provider, "PATCH", `/api/tasks/${early.id}/complete`);
    await e2e.api(poster, "POST", `/api/tasks/${early.id}/approve-release`);

    const page = await newPage(provider.context());
    const layoutShift = await watchLayoutShifts(page);
    const today = await page.evaluate(() => new Date().toLocaleDateString("en-US", { month: "short", day: "numeric" }));
    const dueDay = await page.evaluate(() => new Date(Date.now() + 24 * 3_600_000).toLocaleDateString("en-US", { month: "short", day: "numeric" }));

    // 390 px: one card per task, each as wide as the page allows, and nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${e2e.server.url}/dashboard`);
    await expect.poll(() => page.getByRole("heading", { name: "Jobs I'm Working On" }).isVisible(), POLL).toBe(true);
    await page.waitForLoadState("networkidle");
    // Issue 27 measured 0.21 here: the alerts arrived after the buttons and the list and pushed them down.
    expect(await layoutShift()).toBeLessThan(0.02);
    await page.goto(`${e2e.server.url}/earnings`);
    const cards = page.getByTestId("earnings-card");
    await expect.poll(() => cards.filter({ hasText: "Assemble a standing desk" }).isVisible(), POLL).toBe(true);
    await page.waitForLoadState("networkidle");
    expect(await layoutShift()).toBeLessThan(0.02);
    expect(await page.getByTestId("earnings-row").first().isVisible()).toBe(false);
    const refundedCard = await cards.filter({ hasText: "Carry groceries upstairs" }).innerText();
    expect(refundedCard).toContain("Refunded to poster");
    expect(refundedCard).toMatch(/You earned\s+\$0\.00/);
    expect(refundedCard).not.toContain("In progress");
    const releasedCard = await cards.filter({ hasText: "Assemble a standing desk" }).innerText();
    expect(releasedCard).toContain(`Released ${today},`);
    expect(releasedCard).toMatch(/You earned\s+\$127\.50/);
    if (dueDay !== today) expect(releasedCard).not.toContain(dueDay);
    const widths = await cards.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().width));
    for (const width of widths) expect(width).toBeGreaterThan(300);
    // The old table put "Your share" one letter per line: no word of the list is that narrow now.
    const narrowest = await page.getByRole("region", { name: "Tasks" }).evaluate((section) => {
      const words = [...section.querySelectorAll("dt, dd, p, a, span")].filter((el) => el.checkVisibility() && (el.textContent ?? "").trim().length > 3);
      return Math.min(...words.map((el) => el.getBoundingClientRect().width));
    });
    expect(narrowest).toBeGreaterThan(30);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await noSidewaysAtBothWidths(page, "earnings");
    await expectAxeClean(page);

    // 1366 px: the same rows as a table.
    await page.setViewportSize({ width: 1366, height: 900 });
    const rows = page.getByTestId("earnings-row");
    await expect.poll(() => rows.filter({ hasText: "Carry groceries upstairs" }).isVisible(), POLL).toBe(true);
    expect(await cards.first().isVisible()).toBe(false);
    expect(await rows.filter({ hasText: "Carry groceries upstairs" }).innerText()).toMatch(/Refunded to poster\s+You earned \$0\.00/);
    expect(await rows.filter({ hasText: "Assemble a standing desk" }).innerText()).toContain(`Released ${today},`);
    await expectAxeClean(page);
    page.assertClean(EXPECTED);
    await page.close();
  });

  it("complete, release and tip each state their amount before anything happens", async () => {
    const task = await postTask("Move a bookcase", 150);
    await e2e.api(provider, "PATCH", `/api/tasks/${task.id}/claim`);
    await e2e.payByApi(poster, task);
    await poster.goto(`${e2e.server.url}/task/${task.id}`);
    await expect.poll(() => poster.getByText("Paid · held in escrow").first().isVisible(), POLL).toBe(true);
    await e2e.api(provider, "PATCH", `/api/tasks/${task.id}/start`);

    await provider.goto(`${e2e.server.url}/task/${task.id}`);
    await provider.getByRole("button", { name: "Mark Complete" }).click();
    const complete = dialog(provider, "Mark this task complete?");
    await expect.poll(() => complete.innerText(), POLL).toContain("The poster has 24 hours to approve or report a problem; then $127.50 is released to you.");
    await expectAxeClean(provider);
    await complete.getByRole("button", { name: "Yes, mark complete" }).click();
    await expect.poll(() => provider.getByText("Task updated successfully!").first().isVisible(), POLL).toBe(true);

    const { provider: card } = await e2e.api<{ provider: { displayName: string } | null }>(poster, "GET", `/api/tasks/${task.id}`);
    const name = card?.displayName ?? "";
    await poster.goto(`${e2e.server.url}/task/${task.id}`);
    await expect
      .poll(() => poster.getByText(/^You have until \w{3} \d{1,2}:\d\d [AP]M to approve or report a problem\./).isVisible(), POLL)
      .toBe(true);
    expect(await poster.getByText(`Approve releases $127.50 to ${name} now; if you do nothing, it is released automatically then.`, { exact: false }).isVisible()).toBe(true);
    await noSidewaysAtBothWidths(poster, "approval-window");

    await poster.getByRole("button", { name: "Approve & Release Payment" }).click();
    const release = dialog(poster, "Release the payment now?");
    // One full stop after a display name that ends in its initial's ("Devon P.").
    await expect.poll(() => release.innerText(), POLL).toContain(`$127.50 will be released to ${name.replace(/\.$/, "")}.`);
    expect(await release.innerText()).not.toContain("..");
    await expectAxeClean(poster);
    await release.getByRole("button", { name: "Yes, release payment" }).click();
    await expect.poll(() => poster.getByText("Payment Released").first().isVisible(), POLL).toBe(true);
    // The toast itself, not only the card's heading: a toast that arrives after the tip dialog opens
    // is the newest layer and would take the Escape pressed below.
    await expect.poll(() => poster.getByText("The provider has been paid.").isVisible(), POLL).toBe(true);

    await poster.getByRole("button", { name: "Tip" }).click();
    await poster.getByLabel("Tip amount ($)").fill("10");
    await poster.getByRole("button", { name: "Review Tip" }).click();
    const tip = poster.getByRole("group", { name: "Confirm your tip" });
    await expect.poll(() => tip.innerText(), POLL).toContain(`Send a $10.00 tip to ${name}?`);
    expect(await tip.getByRole("button", { name: "Yes, send $10.00 tip" }).isVisible()).toBe(true);
    await expectAxeClean(poster);
    // Going back changes nothing: no tip is started.
    await tip.getByRole("button", { name: "Change amount" }).click();
    await expect.poll(() => poster.getByLabel("Tip amount ($)").isVisible(), POLL).toBe(true);
    // Escape closes it with focus back on its button (the dialog loads on first use, so that button
    // is not Radix's own trigger: decision 041).
    await poster.keyboard.press("Escape");
    const tipButton = poster.getByRole("button", { name: "Tip" });
    await expect.poll(() => tipButton.evaluate((el) => el === document.activeElement), POLL).toBe(true);
    poster.assertClean(EXPECTED);
    provider.assertClean(EXPECTED);
  });

  it("cancelling a paid task: the poster sees the refund, the provider is told, the chat is closed", async () => {
    const task = await postTask("Deliver a birthday cake", 30);
    await e2e.api(provider, "PATCH", `/api/tasks/${task.id}/claim`);
    await e2e.payByApi(poster, task);
    await e2e.api(poster, "POST", "/api/messages", { taskId: task.id, content: "The cake is in the fridge." });

    await poster.goto(`${e2e.server.url}/task/${task.id}`);
    await poster.getByRole("button", { name: "Cancel Task" }).click();
    const cancel = dialog(poster, "Cancel this task?");
    await expect.poll(() => cancel.innerText(), POLL).toContain("$32.90 will be refunded to your card.");
    expect(await cancel.innerText()).toContain("The provider will be told");
    await expectAxeClean(poster);
    await cancel.getByRole("button", { name: "Yes, cancel task" }).click();
    // The task's account, in the poster's words (decision 073): the refund and why, and the chat's line.
    await expect.poll(() => poster.getByTestId("payment-account").innerText(), POLL).toContain("$32.90 was refunded to your card because you cancelled the task.");
    await expect
      .poll(() => poster.getByText("You cancelled this task, so the chat is closed. $32.90 was refunded to your card because you cancelled the task.").isVisible(), POLL)
      .toBe(true);
    expect(await poster.getByRole("textbox", { name: "Message" }).count()).toBe(0);
    await expectAxeClean(poster);
    await noSidewaysAtBothWidths(poster, "refunded");

    await provider.goto(`${e2e.server.url}/task/${task.id}`);
    await expect
      .poll(() => provider.getByText("The poster cancelled this task, so the chat is closed. $32.90 was refunded to the poster because the poster cancelled the task.").isVisible(), POLL)
      .toBe(true);
    await expect.poll(() => provider.getByText("The cake is in the fridge.").isVisible(), POLL).toBe(true);
    expect(await provider.getByRole("textbox", { name: "Message" }).count()).toBe(0);
    // Nothing reached this provider, so their payment card promises nothing (decision 073); once
    // honest-copy.e2e.ts's, whose "Closed" chat is task-chat-panel.test.tsx's now.
    const payment = provider.getByTestId("payment-box").locator("..");
    await expect.poll(() => payment.innerText(), POLL).toContain("$32.90 was refunded to the poster because the poster cancelled the task. This task pays you nothing.");
    expect(await payment.innerText()).not.toMatch(/You'll earn|Your earnings/);
    expect(await notificationsText(provider)).toContain("A task you claimed was cancelled");
    await expectAxeClean(provider);
    poster.assertClean(EXPECTED);
    provider.assertClean(EXPECTED);
  });
});
