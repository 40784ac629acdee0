import { beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext } from "playwright-core";
import { DEMO, formatViolations, newPage, seriousAxeViolations, signIn, useServerAndBrowser } from "./harness.js";

// Offers (docs/product.md, Offers): on a task that takes offers the provider makes an offer from the
// task page, the poster reads it with Felix, accepts it after a confirmation that states the total
// first, and pays exactly that total. At a phone's width and a desktop's.

const e2e = useServerAndBrowser();
let posterContext: BrowserContext;
let providerContext: BrowserContext;
let poster: Awaited<ReturnType<typeof newPage>>;
let provider: Awaited<ReturnType<typeof newPage>>;

beforeAll(async () => {
  posterContext = await e2e.browser.newContext();
  providerContext = await e2e.browser.newContext();
  poster = await newPage(posterContext);
  provider = await newPage(providerContext);
  await signIn(poster, e2e.server.url, DEMO.poster, DEMO.password, "/dashboard");
  await signIn(provider, e2e.server.url, DEMO.provider, DEMO.password, "/dashboard");
  poster.problems.length = 0;
  provider.problems.length = 0;
});

async function offersTask(title: string): Promise<string> {
  const task = await e2e.api<{ id: string }>(poster, "POST", "/api/tasks", {
    title,
    description: "Collect a parcel from the post office",
    category: "errands",
    budget: 50,
    urgency: "standard",
    hiringMode: "offers",
    location: "12 Main St",
    city: "Annapolis",
    state: "MD",
  });
  return task.id;
}

/** Nothing on the page is wider than the window. */
const noSidewaysScroll = (page: typeof poster) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe.each([
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
])("offers at $width px", (viewport) => {
  it("the provider offers, the poster reads Felix's view, accepts and pays the stated total", async () => {
    await poster.setViewportSize(viewport);
    await provider.setViewportSize(viewport);
    const taskId = await offersTask(`Parcel pickup by offer at ${viewport.width}`);

    // The poster's page is open before any offer: it lists each one as it arrives, without a reload.
    await poster.goto(`${e2e.server.url}/task/${taskId}`);
    const card = poster.getByTestId("offer-card");
    await expect.poll(() => poster.getByRole("heading", { name: `Parcel pickup by offer at ${viewport.width}` }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await card.count()).toBe(0);

    // The provider sees no Claim, only the offer form.
    await provider.goto(`${e2e.server.url}/task/${taskId}`);
    await expect.poll(() => provider.getByRole("heading", { name: "Make an offer" }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await provider.getByRole("button", { name: "Claim Task" }).count()).toBe(0);
    await provider.getByLabel("Your price ($)").fill("45");
    await provider.getByLabel("When you can do it").fill("Saturday morning");
    await provider.getByLabel("Message to the poster").fill("I pass the post office on my way.");
    await provider.getByRole("button", { name: "Send offer" }).click();
    await expect.poll(() => provider.getByRole("heading", { name: "Your offer" }).isVisible()).toBe(true);
    expect(formatViolations(await seriousAxeViolations(provider))).toBe("");
    expect(await noSidewaysScroll(provider)).toBe(true);

    // The poster sees the offer with the provider's card and asks Felix about its price.
    await expect.poll(() => card.count(), { timeout: 15_000 }).toBe(1);
    expect(await card.innerText()).toContain("I pass the post office on my way.");
    expect(formatViolations(await seriousAxeViolations(poster))).toBe("");
    expect(await noSidewaysScroll(poster)).toBe(true);
    await card.getByRole("button", { name: "Ask Felix" }).click();
    const felix = poster.getByRole("dialog");
    await expect.poll(() => felix.isVisible(), { timeout: 15_000 }).toBe(true);
    await poster.keyboard.press("Escape");
    await expect.poll(() => felix.count()).toBe(0);

    // $45 + the service fee ceil(8% of $45) + $0.50 = $49.10, stated first, then charged.
    await card.getByRole("button", { name: "Accept $45 offer" }).click();
    const confirm = poster.getByRole("alertdialog");
    await expect.poll(() => confirm.isVisible()).toBe(true);
    expect(await confirm.innerText()).toContain("You will pay $49.10 in total");
    await confirm.getByRole("button", { name: "Accept and pay $49.10" }).click();

    await poster.getByRole("button", { name: "Pay by card ($49.10)" }).click({ timeout: 15_000 });
    await poster.getByLabel("Card number").fill("4242 4242 4242 4242");
    await poster.getByLabel("Expiry (MM/YY)").pressSequentially("1234");
    await poster.getByLabel("CVC").fill("123");
    await poster.getByRole("button", { name: "Pay $49.10" }).click();
    await expect.poll(() => poster.getByText("Payment Successful").first().isVisible(), { timeout: 15_000 }).toBe(true);
    const task = await e2e.api<{ totalAmount: number; paymentCapturedAt: string | null; providerId: string }>(poster, "GET", `/api/tasks/${taskId}`);
    expect(task.totalAmount).toBe(49.1);
    expect(task.paymentCapturedAt).not.toBeNull();
    poster.assertClean();
    provider.assertClean();
  });
});
