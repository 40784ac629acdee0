import { describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { dollarsToCents } from "../src/shared/money.js";
import { paymentReceivedWords } from "../src/shared/money-words.js";
import { DEMO, formatViolations, latestMailLink, newPage, posterAndProvider, seriousAxeViolations, signIn, TILE_HOST, useServerAndBrowser, type TestPage } from "./harness.js";
import { parcelPickup } from "../test/fixtures/task-bodies.js";

// Issue 27, items 10 and 13, as a person reads them on a phone or a desktop: the payment toast says what
// happens to an $80 task's money, the settings tabs all fit a phone, deleting an account ends on a
// goodbye and leaves "Deleted user", and a task map whose tiles fail shows no broken images.
// A refused card said on the form is task-payment-form.test.tsx's and payments.e2e.ts's; a
// cancelled paid task promising its provider nothing money-trust.e2e.ts's, its chat reading Closed
// task-chat-panel.test.tsx's.

// One width per journey: what they test is copy and state, not layout, and every route's phone
// layout is every-route-a11y.e2e.ts's (nothing scrolls sideways at 390 px). The settings tabs are
// a layout rule for phones, so they run at 390 px.
const PHONE = 390;
const DESKTOP = 1366;
const POLL = { timeout: 20_000, interval: 100 };
const PASSWORD = "quiet walnut harbor 7";
// A signed-out check answers 401, a tile that cannot load fails: both expected.
const EXPECTED = [/401 \(Unauthorized\)/, /ERR_FAILED/, /Failed to load resource/];

const e2e = useServerAndBrowser();

interface Task {
  id: string;
  totalAmount: number;
  budget: number;
}

/** One person signed in through the API (the harness's posterAndProvider is the pair) at `width`. */
async function signedIn(width: number, email: string): Promise<{ context: BrowserContext; page: TestPage }> {
  const context = await e2e.browser.newContext({ viewport: { width, height: 844 } });
  const page = await newPage(context);
  await signIn(page, e2e.server.url, email, DEMO.password, "/dashboard");
  page.problems.length = 0;
  return { context, page };
}

/** The demo poster and provider, each in a context of their own at `width`. */
const pair = (width: number) => posterAndProvider(e2e, "/dashboard", { viewport: { width, height: 844 } });

async function postTask(poster: Page, title: string, budget: number): Promise<Task> {
  return e2e.api<Task>(poster, "POST", "/api/tasks", parcelPickup(title, { budget, lat: 38.9784, lon: -76.4922 }));
}

async function payInBrowser(poster: Page, taskId: string, cardNumber: string): Promise<void> {
  await poster.goto(`${e2e.server.url}/task/${taskId}`);
  await poster.getByRole("button", { name: /^Pay by card \(\$[\d.,]+\)$/ }).click();
  await poster.getByLabel("Card number").fill(cardNumber);
  await poster.getByLabel("Expiry (MM/YY)").pressSequentially("1234");
  await poster.getByLabel("CVC").fill("123");
  await poster.getByRole("button", { name: /^Pay \$/ }).click();
}

async function expectAxeClean(page: Page): Promise<void> {
  const violations = await seriousAxeViolations(page);
  expect(violations, formatViolations(violations)).toEqual([]);
}

describe("copy that says what the product does", () => {
  it.each([PHONE])("at %i px: the eighty-dollar payment toast says the money goes to the provider on completion", async (width) => {
    const { poster, provider } = await pair(width);
    const task = await postTask(poster, `Eighty dollar parcel ${width}`, 80);
    await e2e.api(provider, "PATCH", `/api/tasks/${task.id}/claim`);
    await payInBrowser(poster, task.id, "4242 4242 4242 4242");
    const words = paymentReceivedWords(dollarsToCents(task.totalAmount), dollarsToCents(task.budget));
    await expect.poll(() => poster.getByText(words).first().isVisible(), POLL).toBe(true);
    expect(words).toContain("release it to the provider when they mark the task complete");
    expect(await poster.getByText("until you approve the work").count()).toBe(0);
    await expectAxeClean(poster);
    poster.assertClean(EXPECTED);
    provider.assertClean(EXPECTED);
    await poster.context().close();
    await provider.context().close();
  });

  it.each([PHONE])("at %i px: every settings tab is whole and on screen", async (width) => {
    const { context, page } = await signedIn(width, DEMO.provider);
    await page.goto(`${e2e.server.url}/settings/profile`);
    await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    const tabs = page.getByRole("navigation", { name: "Settings" }).getByRole("link");
    expect(await tabs.allInnerTexts()).toEqual(["Profile", "Security", "E-mail", "Job alerts", "Calendar", "Notifications", "Privacy"]);
    const boxes = await tabs.evaluateAll((links) =>
      links.map((link) => {
        const box = link.getBoundingClientRect();
        let clipped = false;
        for (let el = link.parentElement; el; el = el.parentElement) {
          const outer = el.getBoundingClientRect();
          if (getComputedStyle(el).overflowX !== "visible" && (box.left < outer.left || box.right > outer.right)) clipped = true;
        }
        return { text: link.textContent, left: box.left, right: box.right, cut: link.scrollWidth > link.clientWidth || clipped };
      }),
    );
    for (const box of boxes) {
      expect(box.left, `${box.text} at ${width}px`).toBeGreaterThanOrEqual(0);
      expect(box.right, `${box.text} at ${width}px`).toBeLessThanOrEqual(width);
      expect(box.cut, `${box.text} at ${width}px`).toBe(false);
    }
    await expectAxeClean(page);
    page.assertClean(EXPECTED);
    await context.close();
  });

  it.each([DESKTOP])("at %i px: deleting the account ends on the goodbye page, and the task's provider then reads \"Deleted user\"", async (width) => {
    const context = await e2e.browser.newContext({ viewport: { width, height: 844 } });
    const email = `goodbye-${width}-${Date.now()}@example.test`;
    const registered = await context.request.post(`${e2e.server.url}/api/auth/register`, {
      data: { email, password: PASSWORD, firstName: "Gwen", lastName: "Goodbye" },
      headers: { origin: e2e.server.url },
    });
    expect(registered.status()).toBe(202);
    const page = await newPage(context);
    // Posting needs a confirmed address; the link, opened in the browser that registered, signs the
    // person in (decision 044).
    await page.goto(await latestMailLink(e2e.server, email, "/verify-email"));
    await expect.poll(() => page.getByText(`${email} is confirmed as your address, and you are signed in.`).isVisible(), POLL).toBe(true);
    page.problems.length = 0;
    const provider = await signedIn(width, DEMO.provider);
    // A finished task under the approval window's budget: nothing stays held, so deletion is allowed.
    const task = await postTask(page, `Parcel of a leaving poster ${width}`, 50);
    await e2e.api(provider.page, "PATCH", `/api/tasks/${task.id}/claim`);
    await e2e.payByApi(page, task);
    await e2e.api(provider.page, "PATCH", `/api/tasks/${task.id}/start`);
    await e2e.api(provider.page, "PATCH", `/api/tasks/${task.id}/complete`);

    await page.goto(`${e2e.server.url}/settings/privacy`);
    await page.getByRole("button", { name: "Delete my account" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete your account?" });
    await dialog.getByLabel("Your password").fill(PASSWORD);
    await dialog.getByRole("button", { name: "Delete my account for good" }).click();
    await page.waitForURL(`${e2e.server.url}/goodbye`);
    await page.getByRole("heading", { level: 1, name: "Your account is deleted" }).waitFor();
    expect(await page.getByRole("heading", { level: 1, name: "Settings" }).count()).toBe(0);
    await expectAxeClean(page);

    await provider.page.goto(`${e2e.server.url}/task/${task.id}`);
    await expect.poll(() => provider.page.getByText("Posted by Deleted user").isVisible(), POLL).toBe(true);
    expect(await provider.page.getByText("Deleted U.").count()).toBe(0);
    await expectAxeClean(provider.page);
    page.assertClean(EXPECTED);
    provider.page.assertClean(EXPECTED);
    await context.close();
    await provider.context.close();
  });

  it.each([PHONE])("at %i px: the task's map shows no broken image when its tiles cannot load, and the poster's display name", async (width) => {
    const { poster, provider } = await pair(width);
    const task = await postTask(poster, `Map parcel ${width}`, 40);
    await e2e.api(provider, "PATCH", `/api/tasks/${task.id}/claim`);
    await e2e.payByApi(poster, task);
    // Routed after newPage's blank tiles, so this failure takes precedence (harness.ts).
    await provider.route(TILE_HOST, (route) => route.abort());
    await provider.goto(`${e2e.server.url}/task/${task.id}`);
    const map = provider.getByTestId("task-area-map");
    await expect.poll(() => map.getByText("Map tiles are unavailable.").isVisible(), POLL).toBe(true);
    const broken = await map.locator("img").evaluateAll((imgs) => imgs.filter((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth === 0).length);
    expect(broken).toBe(0);
    // The assigned provider reads the poster as everyone does (decision 023), as the profile promises.
    const me = await e2e.api<{ firstName: string; lastName: string }>(poster, "GET", "/api/auth/user");
    const postedBy = await provider.getByText(/^Posted by/).first().innerText();
    expect(postedBy).toBe(`Posted by ${me.firstName} ${me.lastName.charAt(0)}.`);
    await expectAxeClean(provider);
    poster.assertClean(EXPECTED);
    provider.assertClean(EXPECTED);
    await poster.context().close();
    await provider.context().close();
  });
});
