import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { disputeSplit, priceTask } from "../src/shared/money.js";
import { tinyPng } from "../test/fixtures/test-files.js";
import { atBothWidths, DEMO, DESKTOP, formatViolations, newPage, PHONE, seriousAxeViolations, signIn, useServerAndBrowser } from "./harness.js";

// Disputes at every paid stage and late cancellation (docs/product.md, Money; docs/decisions/057):
// a poster reports a problem on a started task with a photo, the provider answers, an admin sees the
// photo and refunds 40% after a confirmation stating both amounts, both see the amounts and the
// settled badge, and the provider's earnings show what they received; a late cancellation states
// its fee before anything happens. Each journey walked once, each screen it reaches checked at
// 390 and 1366 px (atBothWidths).

const e2e = useServerAndBrowser();

type Task = { id: string; title: string; status: string; totalAmount: number; budget: number };

async function axeClean(page: Page): Promise<void> {
  const violations = await seriousAxeViolations(page);
  expect(violations, formatViolations(violations)).toEqual([]);
}

async function noSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

/** A new task of the demo poster's, claimed by the demo provider and paid with the sandbox card. */
async function paidTask(poster: Page, provider: Page, title: string, scheduledDate: string | null): Promise<Task> {
  const task = await e2e.api<Task>(poster, "POST", "/api/tasks", {
    title,
    description: "Carry two boxes from the garage to the attic",
    category: "errands",
    budget: 50,
    urgency: "standard",
    location: "12 Main St, Annapolis, MD 21401",
    city: "Annapolis",
    state: "MD",
    scheduledDate,
  });
  await e2e.api(provider, "PATCH", `/api/tasks/${task.id}/claim`);
  await e2e.payByApi(poster, task);
  return task;
}

const dollars = (n: number) => `$${n.toFixed(2)}`;

describe("disputes, each screen at 390 and 1366 px", () => {
  it("a poster reports a problem with a photo on a started task, the provider answers, an admin sees the photo and refunds 40%", async () => {
    const viewport = PHONE;
    const open = async () => newPage(await e2e.browser.newContext({ viewport }));
    const [poster, provider, admin] = [await open(), await open(), await open()];
    const pages = [poster, provider, admin];
    await signIn(poster, e2e.server.url, DEMO.poster, DEMO.password, "/");
    await signIn(provider, e2e.server.url, DEMO.provider, DEMO.password, "/");
    await signIn(admin, e2e.server.url, DEMO.admin, DEMO.password, "/");
    const task = await paidTask(poster, provider, `Move boxes ${viewport.width}`, null);
    await e2e.api(provider, "PATCH", `/api/tasks/${task.id}/start`);

    await poster.goto(`${e2e.server.url}/task/${task.id}`);
    await provider.goto(`${e2e.server.url}/task/${task.id}`);
    // Cancel Task is gone once work starts; the page says where the way out went.
    await expect.poll(() => poster.getByText("The work has started, so the task can no longer be cancelled. To ask for your money back, use Report a Problem below.").isVisible(), { timeout: 15_000 }).toBe(true);
    await poster.getByRole("button", { name: "Report a Problem" }).click();
    const dialog = poster.getByRole("dialog", { name: "Report a Problem" });
    await expect.poll(() => dialog.getByText(`${dollars(task.totalAmount)} stays held in escrow until an admin decides.`).isVisible(), { timeout: 15_000 }).toBe(true);
    await atBothWidths(poster, () => axeClean(poster));
    await dialog.getByLabel("What kind of problem?").selectOption("not_done");
    await dialog.getByLabel("What happened?").fill("The provider left after an hour and one box is still in the garage.");
    await dialog.getByLabel("Photos (optional)").setInputFiles({ name: "garage.png", mimeType: "image/png", buffer: tinyPng() });
    await expect.poll(() => dialog.getByRole("img", { name: "Chosen photo 1: garage.png" }).isVisible()).toBe(true);
    await atBothWidths(poster, async () => {
      await axeClean(poster);
      await noSidewaysScroll(poster);
    });
    await dialog.getByRole("button", { name: "Report Problem" }).click();
    const money = (page: Page) => page.getByTestId("dispute-money");
    await expect.poll(() => money(poster).textContent(), { timeout: 15_000 }).toBe(`${dollars(task.totalAmount)} is held in escrow until an admin decides.`);

    // The provider's page updates itself with the live frame, then they give their side.
    await expect.poll(() => provider.getByText("The provider left after an hour").isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => provider.getByRole("img", { name: "Photo 1 from the poster, open full size" }).isVisible(), { timeout: 15_000 }).toBe(true);
    await provider.getByLabel("Your side").fill("I carried one box; the second one was too heavy for the ladder.");
    await provider.getByRole("button", { name: "Send", exact: true }).click();
    await expect.poll(() => poster.getByText("the second one was too heavy").isVisible(), { timeout: 15_000 }).toBe(true);
    await atBothWidths(provider, async () => {
      await axeClean(provider);
      await noSidewaysScroll(provider);
    });

    // The admin finds it on the finance page, opens the thread and refunds 40%.
    await admin.goto(`${e2e.server.url}/admin/finance`);
    await admin.getByRole("link", { name: task.title }).first().waitFor();
    await atBothWidths(admin, () => axeClean(admin));
    await admin.goto(`${e2e.server.url}/task/${task.id}`);
    // The poster's photo is in the thread as a thumbnail that opens the full-size image.
    const thumbnail = admin.getByRole("img", { name: "Photo 1 from the poster, open full size" });
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 15_000 }).toBe(true);
    const full = await admin.getByRole("link", { name: "Photo 1 from the poster, open full size" }).getAttribute("href");
    expect(full).toMatch(/^\/api\/dispute-photos\/[0-9a-f-]+\/medium$/);
    expect(await admin.evaluate(async (url) => (await fetch(url)).headers.get("content-type"), full ?? "")).toBe("image/webp");
    // The admin is not the poster: the provider's card is not "Your provider", and the parties'
    // chat says where the admin writes instead of "Offline" and a refusal.
    await expect.poll(() => admin.getByRole("heading", { name: "Provider", exact: true }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await admin.getByRole("heading", { name: "Your provider" }).count()).toBe(0);
    expect(await admin.getByText("To write to both of them about a reported problem, add a note in the problem's thread on this page.", { exact: false }).isVisible()).toBe(true);
    expect(await admin.getByText("You don't have permission to view this chat").count()).toBe(0);
    // A refund above what the escrow holds is refused under the field, as it is typed.
    const refundField = admin.getByLabel("Refund to the poster ($)");
    await refundField.fill("999");
    await expect
      .poll(() => admin.getByText(`The refund can be at most ${dollars(task.totalAmount)}, what the escrow holds.`).isVisible(), { timeout: 15_000 })
      .toBe(true);
    expect(await refundField.getAttribute("aria-invalid")).toBe("true");
    const refund = Math.round(task.totalAmount * 40) / 100;
    await refundField.fill(refund.toFixed(2));
    await admin.getByLabel("Reason shown to both").fill("One of the two boxes was moved.");
    await admin.getByRole("button", { name: "Resolve dispute" }).click();
    const confirm = admin.getByRole("alertdialog").or(admin.getByRole("dialog"));
    await expect.poll(() => confirm.getByText(`${dollars(refund)} is refunded to the poster.`).isVisible(), { timeout: 15_000 }).toBe(true);
    // Both amounts before anything moves, by the split the server records (disputeSplit).
    const split = disputeSplit(priceTask(task.budget * 100, "standard"), Math.round(task.totalAmount * 100), Math.round(refund * 100));
    const received = dollars(split.providerShareCents / 100);
    const released = dollars(split.releaseCents / 100);
    const kept = dollars((split.releaseCents - split.providerShareCents) / 100);
    await expect.poll(() => confirm.getByText(`The provider receives ${received} of the ${released} released; Errandly keeps ${kept} in fees.`).isVisible()).toBe(true);
    await atBothWidths(admin, () => axeClean(admin));
    await confirm.getByRole("button", { name: "Yes, resolve" }).click();

    // Each side reads the one account of the task's money in their words (decision 073): what came
    // back, what the provider received, the pro-rata rule that split it, and never "pays nothing".
    const total = dollars(task.totalAmount);
    const share = dollars(priceTask(task.budget * 100, "standard").providerShareCents / 100);
    const rule = `${share} × ${released} ÷ ${total} = ${received}. Errandly keeps the other ${kept}.`;
    const told = { poster: `${dollars(refund)} was refunded to you and `, provider: `${dollars(refund)} was refunded to the poster and you received ${received}.` };
    for (const [who, page] of [["poster", poster], ["provider", provider]] as const) {
      await expect.poll(() => money(page).textContent(), { timeout: 15_000 }).toContain(told[who]);
      await expect.poll(() => page.getByText("Admin's reason: One of the two boxes was moved.").isVisible()).toBe(true);
      // The task ended, but it was not simply cancelled: the badge says how the money was settled.
      await expect.poll(() => page.getByText("Resolved: partly refunded").first().isVisible(), { timeout: 15_000 }).toBe(true);
      const account = page.getByTestId("payment-account");
      await expect.poll(() => account.innerText(), { timeout: 15_000 }).toContain(rule);
      const text = await account.innerText();
      expect(text).toContain(told[who]);
      expect(text).toContain(who === "poster" ? "Partly refunded" : "Settled by admin");
      if (who === "poster") expect(text).toMatch(new RegExp(`Your cost\\s+\\${dollars(task.totalAmount - refund)}`));
      const box = await page.getByTestId("payment-box").locator("..").innerText();
      if (who === "provider") expect(box).toMatch(new RegExp(`You received\\s+\\${received}`));
      for (const said of [text, box]) expect(said).not.toMatch(/pays (you )?nothing|Nothing will be paid|was cancelled/);
      // The closed chat says who ended it: an admin's settlement, not a cancellation.
      await expect.poll(() => page.getByText("An admin settled this task, so the chat is closed.", { exact: false }).isVisible(), { timeout: 15_000 }).toBe(true);
      await atBothWidths(page, async (width) => {
        await noSidewaysScroll(page);
        await axeClean(page);
        await page.screenshot({ path: `/tmp/money-account-shots/partial-refund-${who}-${width}.png`, fullPage: true });
      });
    }

    // The provider's earnings show what they received and why, not "In progress".
    await provider.goto(`${e2e.server.url}/earnings`);
    // A card on a phone, a table row on a desktop.
    await atBothWidths(provider, async (width) => {
      const row = provider.getByTestId(width < 768 ? "earnings-card" : "earnings-row").filter({ hasText: task.title });
      await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain("Settled by admin");
      const rowText = (await row.textContent()) ?? "";
      expect(rowText).toContain(received);
      expect(rowText).toContain(`${dollars(refund)} was refunded to the poster`);
      expect(rowText).not.toContain("In progress");
      await axeClean(provider);
      await noSidewaysScroll(provider);
    });
    for (const page of pages) await page.context().close();
    // Three people, two axe checks and a screenshot per page: over the default 2 minutes on a busy machine.
  }, 240_000);

  it("a late cancellation states its fee and the refund before anything happens", async () => {
    const viewport = DESKTOP;
    const open = async () => newPage(await e2e.browser.newContext({ viewport }));
    const [poster, provider] = [await open(), await open()];
    const pages = [poster, provider];
    await signIn(poster, e2e.server.url, DEMO.poster, DEMO.password, "/");
    await signIn(provider, e2e.server.url, DEMO.provider, DEMO.password, "/");
    const soon = new Date(Date.now() + 3 * 3_600_000).toISOString();
    const task = await paidTask(poster, provider, `Late cancel ${viewport.width}`, soon);

    await poster.goto(`${e2e.server.url}/task/${task.id}`);
    await poster.getByRole("button", { name: /^Cancel/ }).first().waitFor();
    // Paid: declining the provider has closed, so it is not offered as a dead button.
    expect(await poster.getByRole("button", { name: "Decline This Provider" }).count()).toBe(0);
    expect(await poster.getByText("You can decline this provider until you pay").count()).toBe(0);
    await poster.getByRole("button", { name: /^Cancel/ }).first().click();
    // 15% of the $50 budget is $7.50.
    await expect.poll(() => poster.getByText("The task is due in less than 24 hours, so $7.50 goes to").isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => poster.getByText(`${dollars(task.totalAmount - 7.5)} will be refunded to your card.`).isVisible()).toBe(true);
    await atBothWidths(poster, async () => {
      await axeClean(poster);
      await noSidewaysScroll(poster);
    });
    await poster.getByRole("button", { name: "Yes, cancel task" }).click();
    await expect.poll(async () => (await e2e.api<{ status: string }>(poster, "GET", `/api/tasks/${task.id}`)).status, { timeout: 15_000 }).toBe("cancelled");
    for (const page of pages) await page.context().close();
  });
});
