import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request, type APIRequestContext, type Page } from "playwright-core";
import { disputeSplit, formatDollarsExact, lateCancellationFeeCents, priceTask } from "../src/shared/money.js";
import {
  apiCall,
  applyThroughApi,
  approveThroughApi,
  atBothWidths,
  DEMO,
  DESKTOP,
  formatViolations,
  newPage,
  PHONE,
  registerThroughApi,
  seriousAxeViolations,
  signIn,
  signInThroughApi,
  useServerAndBrowser,
  type TestPage,
} from "./harness.js";
import { parcelPickup } from "../test/fixtures/task-bodies.js";

// Each task's money as one account, told the same on every screen (issue 41, docs/decisions/073):
// a late cancellation after a withdrawal, read by the poster (the refund of the ledger, a line for
// the fee, totals that add up) and by the provider who earned the fee (earned, not "pays nothing");
// an offer not chosen, read by its provider (another offer was chosen, no earnings, no refused
// chat); and a partial refund, read by the admin (the pro-rata rule) and on the poster's refund
// receipt (the net cost). Each journey walked once, each screen it reaches checked at a phone's
// width and a desktop's (atBothWidths): axe clean, no sideways scroll; screenshots in SHOTS.

const SHOTS = "/tmp/money-web";
const PASSWORD = "amber falcon ribbon 9";
const e2e = useServerAndBrowser();
/** A second verified provider ("Sam S."), through the API: registered, applied and approved by the admin. */
let sam: APIRequestContext;
let samId = "";
const SAM = { email: "sam.money@example.test", name: "Sam S." };

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const api = () => request.newContext({ baseURL: e2e.server.url, extraHTTPHeaders: { origin: e2e.server.url } });
  sam = await api();
  samId = (await registerThroughApi(e2e.server, sam, { email: SAM.email, firstName: "Sam", lastName: "Second", password: PASSWORD })).id;
  await applyThroughApi(sam, SAM.email, { address: "5 State Circle", city: "Annapolis", bio: "Evenings and weekends, with a car.", phone: "410-555-0143" });
  const admin = await api();
  await signInThroughApi(admin, DEMO.admin, DEMO.password);
  await approveThroughApi(admin, samId);
  await admin.dispose();
});
afterAll(async () => {
  await sam.dispose();
});

const POLL = { timeout: 15_000 };
const money = (cents: number) => formatDollarsExact(cents);
/** The signed-out page's "who am I" answers 401 before signing in. */
const EXPECTED = [/401 \(Unauthorized\)/];
/** What a provider is never told where money reached them, or where none could. */
const WRONG_FOR_EARNER = /pays (you )?nothing|Nothing will be paid|You earn \$0\.00/;

async function axeClean(page: Page): Promise<void> {
  const violations = await seriousAxeViolations(page);
  expect(violations, formatViolations(violations)).toEqual([]);
}

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

async function pageAs(email: string, viewport: { width: number; height: number }, password: string = DEMO.password): Promise<TestPage> {
  const page = await newPage(await e2e.browser.newContext({ viewport }));
  await signIn(page, e2e.server.url, email, password, "/dashboard");
  page.problems.length = 0;
  return page;
}

type Task = { id: string; title: string; totalAmount: number; budget: number };

describe("one account of the task's money, each screen at 390 and 1366 px", () => {
  it("a late cancellation after a withdrawal: the poster reads the ledger's refund and the fee, the provider the fee earned", async () => {
    const viewport = PHONE;
    const [poster, provider, second] = [await pageAs(DEMO.poster, viewport), await pageAs(DEMO.provider, viewport), await pageAs(SAM.email, viewport, PASSWORD)];
    // Due in 3 hours: a cancellation now is late (docs/product.md, Money: late cancellation).
    const soon = new Date(Date.now() + 3 * 3_600_000).toISOString();
    const task = await e2e.api<Task>(poster, "POST", "/api/tasks", parcelPickup(`Late after withdrawal ${viewport.width}`, { scheduledDate: soon }));
    await e2e.api(provider, "PATCH", `/api/tasks/${task.id}/claim`);
    await e2e.payByApi(poster, task);
    await e2e.api(provider, "PATCH", `/api/tasks/${task.id}/withdraw`);
    await apiCall(sam, "PATCH", `/api/tasks/${task.id}/claim`);
    await e2e.payByApi(poster, task);
    await e2e.api(poster, "PATCH", `/api/tasks/${task.id}/cancel`);

    const total = Math.round(task.totalAmount * 100);
    const fee = lateCancellationFeeCents(Math.round(task.budget * 100), total);
    const lateRefund = total - fee;

    await poster.goto(`${e2e.server.url}/task/${task.id}`);
    const account = poster.getByTestId("payment-account");
    await expect.poll(() => account.isVisible(), POLL).toBe(true);
    const said = await account.innerText();
    // The latest event in the ledger's figures: the fee to the provider who earned it and the refund of this cancel.
    expect(said).toContain(`You cancelled less than 24 hours before the task: ${money(fee)} went to ${SAM.name} as a late-cancellation fee and ${money(lateRefund)} was refunded to your card.`);
    // A line for each movement, the fee among them, and totals that add up to the lines.
    expect(said).toMatch(new RegExp(`Late-cancellation fee to ${SAM.name}[\\s\\S]*?\\${money(fee)}`));
    expect(said).toMatch(new RegExp(`Refunded to you because the provider withdrew[\\s\\S]*?\\${money(total)}`));
    expect(said).toMatch(new RegExp(`Refunded to you because you cancelled the task[\\s\\S]*?\\${money(lateRefund)}`));
    expect(said).toMatch(new RegExp(`You paid\\s+\\${money(2 * total)}`));
    expect(said).toMatch(new RegExp(`Refunded to you\\s+\\${money(total + lateRefund)}`));
    expect(said).toMatch(new RegExp(`Your cost\\s+\\${money(fee)}`));
    // Never the whole of both payments, nor one payment, as "the refund" beside another total.
    expect(said).not.toContain(`Refunded ${money(2 * total)}`);
    expect(await poster.getByTestId("account-badge").innerText()).toContain("Partly refunded");
    await atBothWidths(poster, async (width) => {
      expect(await noSidewaysScroll(poster)).toBe(true);
      await axeClean(poster);
      await poster.screenshot({ path: `${SHOTS}/late-cancel-poster-${width}.png`, fullPage: true });
    });

    // The provider who claimed second earned the fee: the page and the earnings say so.
    await second.goto(`${e2e.server.url}/task/${task.id}`);
    const box = second.getByTestId("payment-box").locator("..");
    await expect.poll(() => box.innerText(), POLL).toMatch(new RegExp(`You received\\s+\\${money(fee)}`));
    expect(await box.innerText()).not.toMatch(WRONG_FOR_EARNER);
    const theirs = await second.getByTestId("payment-account").innerText();
    expect(theirs).toContain(`${money(fee)} went to you as a late-cancellation fee`);
    // The first provider's round (their withdrawal's refund) is not theirs to read.
    expect(theirs).not.toContain("because the provider withdrew");
    expect(theirs).not.toMatch(WRONG_FOR_EARNER);
    expect(await second.getByTestId("account-badge").innerText()).toContain("Late-cancellation fee");
    await atBothWidths(second, async (width) => {
      expect(await noSidewaysScroll(second)).toBe(true);
      await axeClean(second);
      await second.screenshot({ path: `${SHOTS}/late-cancel-provider-${width}.png`, fullPage: true });
    });
    await second.goto(`${e2e.server.url}/earnings`);
    // A card on a phone, a table row on a desktop: both say what was earned.
    await atBothWidths(second, async (width) => {
      const row = second.getByTestId(width < 768 ? "earnings-card" : "earnings-row").filter({ hasText: task.title });
      await expect.poll(() => row.innerText(), POLL).toContain("Late-cancellation fee");
      expect(await row.innerText()).toMatch(new RegExp(`You earned\\s+\\${money(fee)}`));
      expect(await row.innerText()).not.toMatch(WRONG_FOR_EARNER);
      await axeClean(second);
    });

    for (const page of [poster, provider, second]) {
      page.assertClean(EXPECTED);
      await page.context().close();
    }
  }, 240_000);

  it("the offerer not chosen reads that another offer was chosen, with no earnings and no refused chat", async () => {
    const viewport = DESKTOP;
    const [poster, provider] = [await pageAs(DEMO.poster, viewport), await pageAs(DEMO.provider, viewport)];
    const task = await e2e.api<Task>(poster, "POST", "/api/tasks", parcelPickup(`Two offers, one chosen ${viewport.width}`, { hiringMode: "offers" }));
    await e2e.api(provider, "PUT", `/api/tasks/${task.id}/offer`, { price: 36, message: "I can pick it up this afternoon.", availability: "Today after 2 pm" });
    await apiCall(sam, "PUT", `/api/tasks/${task.id}/offer`, { price: 40, message: "I can go first thing tomorrow.", availability: "Tomorrow morning" });
    const { offers } = await e2e.api<{ offers: { id: string; price: number; provider: { id: string } }[] }>(poster, "GET", `/api/tasks/${task.id}/offers`);
    const chosen = offers.find((o) => o.provider.id === samId);
    if (!chosen) throw new Error("Sam's offer is missing");
    const accepted = await e2e.api<Task>(poster, "POST", `/api/tasks/${task.id}/offers/${chosen.id}/accept`, { price: chosen.price });
    // Paid, so the account is in escrow: still none of it is the passed-over provider's.
    await e2e.payByApi(poster, accepted);

    await provider.goto(`${e2e.server.url}/task/${task.id}`);
    await expect.poll(() => provider.getByTestId("account-badge").innerText(), POLL).toBe("Another offer was chosen");
    const box = await provider.getByTestId("payment-box").locator("..").innerText();
    expect(box).toContain("The poster chose another provider's offer, so yours is closed");
    const page = await provider.locator("main").innerText();
    for (const wrong of ["You'll earn", "Your earnings", "held in escrow", "Paid · held in escrow", "You don't have permission to view this chat"]) {
      expect(page, `the passed-over provider read "${wrong}"`).not.toContain(wrong);
    }
    expect(page).toContain("Another offer was chosen, so this task's chat is only between its poster and the provider they chose.");
    await atBothWidths(provider, async (width) => {
      expect(await noSidewaysScroll(provider)).toBe(true);
      await axeClean(provider);
      await provider.screenshot({ path: `${SHOTS}/offer-not-chosen-${width}.png`, fullPage: true });
    });

    for (const p of [poster, provider]) {
      p.assertClean(EXPECTED);
      await p.context().close();
    }
  }, 240_000);

  it("a partial refund: the admin reads the pro-rata rule, the poster's refund receipt the net cost", async () => {
    const viewport = PHONE;
    const [poster, provider, admin] = [await pageAs(DEMO.poster, viewport), await pageAs(DEMO.provider, viewport), await pageAs(DEMO.admin, viewport)];
    const task = await e2e.api<Task>(poster, "POST", "/api/tasks", parcelPickup(`Partial refund ${viewport.width}`));
    await e2e.api(provider, "PATCH", `/api/tasks/${task.id}/claim`);
    await e2e.payByApi(poster, task);
    await e2e.api(provider, "PATCH", `/api/tasks/${task.id}/start`);
    await e2e.api(poster, "POST", `/api/tasks/${task.id}/report-problem`, { reason: "not_done", description: "Only one of the two parcels was collected." });
    const total = Math.round(task.totalAmount * 100);
    const refund = Math.round(total * 0.4);
    await e2e.api(admin, "POST", `/api/admin/disputes/${task.id}/resolve`, { refund: refund / 100, reason: "One of the two parcels was collected." });

    // The admin's view of the account: both payments' sides, and the rule that split the release.
    const split = disputeSplit(priceTask(Math.round(task.budget * 100), "standard"), total, refund);
    const share = priceTask(Math.round(task.budget * 100), "standard").providerShareCents;
    const kept = split.releaseCents - split.providerShareCents;
    await admin.goto(`${e2e.server.url}/task/${task.id}`);
    const account = admin.getByTestId("payment-account");
    await expect.poll(() => account.isVisible(), POLL).toBe(true);
    const said = await account.innerText();
    expect(said).toContain(
      `How the split was worked out: of the ${money(total)} held, ${money(refund)} went back and ${money(split.releaseCents)} was released.`,
    );
    expect(said).toContain(`${money(share)} × ${money(split.releaseCents)} ÷ ${money(total)} = ${money(split.providerShareCents)}. Errandly keeps the other ${money(kept)}.`);
    expect(said).toMatch(new RegExp(`Refunded to the poster\\s+\\${money(refund)}`));
    expect(said).toMatch(new RegExp(`The poster's cost\\s+\\${money(total - refund)}`));
    expect(said).toMatch(new RegExp(`Providers received\\s+\\${money(split.providerShareCents)}`));
    expect(said).toMatch(new RegExp(`Errandly kept\\s+\\${money(kept)}`));
    await atBothWidths(admin, async (width) => {
      expect(await noSidewaysScroll(admin)).toBe(true);
      await axeClean(admin);
      await admin.screenshot({ path: `${SHOTS}/partial-refund-admin-${width}.png`, fullPage: true });
    });

    // The poster's refund receipt: what was paid, this refund, and what the task cost them in the end.
    const { receipts } = await e2e.api<{ receipts: { id: string; kind: string; task: { id: string } }[] }>(poster, "GET", "/api/receipts");
    const receipt = receipts.find((r) => r.task.id === task.id && r.kind === "refund");
    if (!receipt) throw new Error("no refund receipt for the partial refund");
    await poster.goto(`${e2e.server.url}/receipts/${receipt.id}`);
    const body = poster.locator("main");
    await expect.poll(() => body.innerText(), POLL).toContain("Your cost for this task");
    const lines = await body.innerText();
    expect(lines).toMatch(new RegExp(`Paid for this task\\s+\\${money(total)}`));
    expect(lines).toMatch(new RegExp(`Refunded to [^\\n]*\\s+\\${money(refund)}`));
    expect(lines).toMatch(new RegExp(`Your cost for this task\\s+\\${money(total - refund)}`));
    await atBothWidths(poster, async (width) => {
      expect(await noSidewaysScroll(poster)).toBe(true);
      await axeClean(poster);
      await poster.screenshot({ path: `${SHOTS}/partial-refund-receipt-${width}.png`, fullPage: true });
    });

    for (const page of [poster, provider, admin]) {
      page.assertClean(EXPECTED);
      await page.context().close();
    }
  }, 240_000);
});
