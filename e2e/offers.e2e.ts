import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request, type APIRequestContext } from "playwright-core";
import {
  apiCall,
  applyThroughApi,
  approveThroughApi,
  DEMO,
  formatViolations,
  posterAndProvider,
  registerThroughApi,
  seriousAxeViolations,
  signInThroughApi,
  useServerAndBrowser,
  type TestPage,
} from "./harness.js";
import { parcelPickup } from "../test/fixtures/task-bodies.js";

// Offers (docs/product.md, Offers): on a task that takes offers the provider makes an offer from the
// task page, a second provider offers less, the poster reads Felix's view of the cheaper offer,
// accepts the other after a confirmation that states the total first, and pays exactly that total.
// At a phone's width and a desktop's.

const e2e = useServerAndBrowser();
let poster: TestPage;
let provider: TestPage;

/** A second verified provider, signed in through the API: registered, applied and approved by the admin. */
let secondProvider: APIRequestContext;
let admin: APIRequestContext;

beforeAll(async () => {
  const api = () => request.newContext({ baseURL: e2e.server.url, extraHTTPHeaders: { origin: e2e.server.url } });
  secondProvider = await api();
  const sam = await registerThroughApi(e2e.server, secondProvider, { email: "sam@example.test", firstName: "Sam", lastName: "Second", password: "amber falcon ribbon 9" });
  await applyThroughApi(secondProvider, "sam@example.test", { address: "5 State Circle", city: "Annapolis", bio: "Evenings and weekends, with a car.", phone: "410-555-0142" });
  admin = await api();
  await signInThroughApi(admin, DEMO.admin, DEMO.password);
  await approveThroughApi(admin, sam.id);

  ({ poster, provider } = await posterAndProvider(e2e));
});
afterAll(async () => {
  await secondProvider.dispose();
  await admin.dispose();
});

async function offersTask(title: string): Promise<string> {
  const task = await e2e.api<{ id: string }>(poster, "POST", "/api/tasks", parcelPickup(title, { hiringMode: "offers" }));
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

    // The poster sees the offer with the provider's card as it arrives, then the second provider's.
    await expect.poll(() => card.count(), { timeout: 15_000 }).toBe(1);
    await apiCall(secondProvider, "PUT", `/api/tasks/${taskId}/offer`, { price: 40, message: "I can do it tonight after work.", availability: "Tonight" });
    await expect.poll(() => card.count(), { timeout: 15_000 }).toBe(2);
    const devons = card.filter({ hasText: "I pass the post office on my way." });
    const sams = card.filter({ hasText: "I can do it tonight after work." });
    expect(await devons.count()).toBe(1);
    expect(await sams.count()).toBe(1);
    expect(formatViolations(await seriousAxeViolations(poster))).toBe("");
    expect(await noSidewaysScroll(poster)).toBe(true);

    // Felix's view of the cheaper offer; the poster then takes the other one.
    await sams.getByRole("button", { name: "Ask Felix" }).click();
    const felix = poster.getByRole("dialog");
    await expect.poll(() => felix.isVisible(), { timeout: 15_000 }).toBe(true);
    await poster.keyboard.press("Escape");
    await expect.poll(() => felix.count()).toBe(0);

    // $45 + the service fee ceil(8% of $45) + $0.50 = $49.10, stated first, then charged.
    await devons.getByRole("button", { name: "Accept $45 offer" }).click();
    const confirm = poster.getByRole("alertdialog");
    await expect.poll(() => confirm.isVisible()).toBe(true);
    expect(await confirm.innerText()).toContain("You will pay $49.10 in total");
    await confirm.getByRole("button", { name: "Accept and go to payment" }).click();

    await poster.getByRole("button", { name: "Pay by card ($49.10)" }).click({ timeout: 15_000 });
    await poster.getByLabel("Card number").fill("4242 4242 4242 4242");
    await poster.getByLabel("Expiry (MM/YY)").pressSequentially("1234");
    await poster.getByLabel("CVC").fill("123");
    await poster.getByRole("button", { name: "Pay $49.10" }).click();
    await expect.poll(() => poster.getByText("Payment Successful").first().isVisible(), { timeout: 15_000 }).toBe(true);
    const task = await e2e.api<{ totalAmount: number; paymentCapturedAt: string | null; providerId: string }>(poster, "GET", `/api/tasks/${taskId}`);
    expect(task.totalAmount).toBe(49.1);
    expect(task.paymentCapturedAt).not.toBeNull();
    // The other offerer is told their offer was not chosen.
    const notices = await apiCall<{ notifications: { kind: string; body: string }[] }>(secondProvider, "GET", "/api/notifications");
    expect(notices.notifications.some((n) => n.kind === "offer_decided")).toBe(true);
    poster.assertClean();
    provider.assertClean();
  });
});
