import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatViolations, posterAndProvider, seriousAxeViolations, useServerAndBrowser, type TestPage } from "./harness.js";
import { parcelPickup } from "../test/fixtures/task-bodies.js";

// Requesting a provider (docs/product.md, Requesting a provider): the poster presses Request on a
// directory card and the wizard opens for that provider; the provider accepts a request from the
// task page and the poster pays the stated total; a second request is declined with a reason, opens
// to everyone, and the poster reads the reason in their bell; a third is cancelled by the poster and
// the provider's open page follows; "Book Again" on the completed task opens the wizard prefilled,
// and once posted, a reload does not open it again.
// At a phone's width and a desktop's.

const e2e = useServerAndBrowser();
let poster: TestPage;
let provider: TestPage;
let providerId = "";
let providerName = "";

beforeAll(async () => {
  ({ poster, provider } = await posterAndProvider(e2e));
  const me = await e2e.api<{ id: string; firstName: string; lastName: string }>(provider, "GET", "/api/auth/user");
  providerId = me.id;
  providerName = `${me.firstName} ${me.lastName.charAt(0)}.`;
});
afterAll(async () => {
  await poster.context().close();
  await provider.context().close();
});

/** A task requested from the demo provider, through the API the wizard posts to. */
async function requestTask(title: string, fallback: "open" | "cancel"): Promise<string> {
  const task = await e2e.api<{ id: string }>(poster, "POST", "/api/tasks", parcelPickup(title, { request: { providerId, windowHours: 24, fallback } }));
  return task.id;
}

const noSidewaysScroll = (page: typeof poster) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe.each([
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
])("requesting a provider at $width px", (viewport) => {
  it("Request opens the wizard for the provider; one request is accepted and paid, one declined with a reason, one cancelled; Book Again prefills", async () => {
    await poster.setViewportSize(viewport);
    await provider.setViewportSize(viewport);

    // Request on the provider's directory card opens the wizard with the request's two choices.
    await poster.goto(`${e2e.server.url}/providers`);
    await poster.getByRole("link", { name: `Request ${providerName}` }).first().click({ timeout: 15_000 });
    const wizard = poster.getByRole("dialog");
    await expect.poll(() => wizard.getByText(`Requesting ${providerName}`).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(formatViolations(await seriousAxeViolations(poster))).toBe("");
    expect(await noSidewaysScroll(poster)).toBe(true);
    await poster.keyboard.press("Escape");

    // The provider accepts the first request from the task page; the poster pays the stated total.
    const accepted = await requestTask(`Requested parcel at ${viewport.width}`, "open");
    await provider.goto(`${e2e.server.url}/task/${accepted}`);
    await provider.getByRole("button", { name: "Accept Request" }).click({ timeout: 15_000 });
    const confirm = provider.getByRole("alertdialog");
    await expect.poll(() => confirm.isVisible()).toBe(true);
    expect(formatViolations(await seriousAxeViolations(provider))).toBe("");
    await confirm.getByRole("button", { name: "Yes, accept" }).click();
    await expect.poll(async () => (await e2e.api<{ status: string }>(poster, "GET", `/api/tasks/${accepted}`)).status, { timeout: 15_000 }).toBe("claimed");

    // $50 + the service fee ceil(8% of $50) + $0.50 = $54.50.
    await poster.goto(`${e2e.server.url}/task/${accepted}`);
    await poster.getByRole("button", { name: "Pay by card ($54.50)" }).click({ timeout: 15_000 });
    await poster.getByLabel("Card number").fill("4242 4242 4242 4242");
    await poster.getByLabel("Expiry (MM/YY)").pressSequentially("1234");
    await poster.getByLabel("CVC").fill("123");
    await poster.getByRole("button", { name: "Pay $54.50" }).click();
    await expect.poll(() => poster.getByText("Payment Successful").first().isVisible(), { timeout: 15_000 }).toBe(true);
    const paid = await e2e.api<{ totalAmount: number; paymentCapturedAt: string | null; providerId: string }>(poster, "GET", `/api/tasks/${accepted}`);
    expect(paid).toMatchObject({ totalAmount: 54.5, providerId });
    expect(paid.paymentCapturedAt).not.toBeNull();

    // A second request is declined with a reason: it opens to everyone, as the poster chose.
    const declined = await requestTask(`Declined parcel at ${viewport.width}`, "open");
    await provider.goto(`${e2e.server.url}/task/${declined}`);
    await provider.getByRole("button", { name: "Decline Request" }).click({ timeout: 15_000 });
    const refusal = provider.getByRole("alertdialog", { name: "Decline this request?" });
    await expect.poll(() => refusal.isVisible()).toBe(true);
    const reason = `Away at a wedding that week (${viewport.width} px).`;
    await refusal.getByLabel("Reason (optional)").fill(reason);
    expect(formatViolations(await seriousAxeViolations(provider))).toBe("");
    expect(await noSidewaysScroll(provider)).toBe(true);
    await refusal.getByRole("button", { name: "Yes, decline" }).click();
    await expect.poll(() => refusal.isVisible(), { timeout: 15_000 }).toBe(false);
    await expect.poll(async () => (await e2e.api<{ status: string }>(poster, "GET", `/api/tasks/${declined}`)).status, { timeout: 15_000 }).toBe("open");
    expect(await noSidewaysScroll(provider)).toBe(true);

    // The poster reads why in their bell.
    await poster.goto(`${e2e.server.url}/task/${declined}`);
    await poster.getByRole("button", { name: /^Notifications, [1-9]\d* unread$/ }).click({ timeout: 15_000 });
    await expect.poll(() => poster.getByText(`Their reason: "${reason}"`).first().isVisible(), { timeout: 15_000 }).toBe(true);
    expect(formatViolations(await seriousAxeViolations(poster))).toBe("");
    await poster.keyboard.press("Escape");

    // A third request is cancelled by the poster: no money moves, and the provider's open page follows.
    const withdrawn = await requestTask(`Cancelled parcel at ${viewport.width}`, "open");
    await provider.goto(`${e2e.server.url}/task/${withdrawn}`);
    await expect.poll(() => provider.getByRole("button", { name: "Accept Request" }).isVisible(), { timeout: 15_000 }).toBe(true);
    await poster.goto(`${e2e.server.url}/task/${withdrawn}`);
    await poster.getByRole("button", { name: "Cancel Task" }).click({ timeout: 15_000 });
    const cancel = poster.getByRole("alertdialog", { name: "Cancel this task?" });
    await expect.poll(() => cancel.isVisible()).toBe(true);
    expect(await cancel.getByText("Nothing has been paid, so no money moves.").isVisible()).toBe(true);
    expect(await cancel.getByText(`${providerName} will be told that you cancelled the request.`).isVisible()).toBe(true);
    await cancel.getByRole("button", { name: "Yes, cancel task" }).click();
    await expect.poll(() => provider.getByRole("button", { name: "Accept Request" }).isVisible(), { timeout: 15_000 }).toBe(false);
    await expect.poll(() => provider.getByText("Cancelled", { exact: true }).first().isVisible(), { timeout: 15_000 }).toBe(true);

    // The first task is done; Book Again opens the wizard prefilled, requested from the same provider.
    await e2e.api(provider, "PATCH", `/api/tasks/${accepted}/start`);
    await e2e.api(provider, "PATCH", `/api/tasks/${accepted}/complete`);
    await poster.goto(`${e2e.server.url}/task/${accepted}`);
    await poster.getByRole("link", { name: "Book Again" }).click({ timeout: 15_000 });
    const again = poster.getByRole("dialog");
    await expect.poll(() => again.getByText(`Requesting ${providerName}`).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await again.getByLabel("Title").inputValue()).toBe(`Requested parcel at ${viewport.width}`);
    expect(formatViolations(await seriousAxeViolations(poster))).toBe("");

    // Posted, the request leaves the address: a reload or Back does not offer the same request again.
    await again.getByRole("button", { name: "Next" }).click();
    await again.getByRole("button", { name: "Next" }).click();
    await again.getByRole("button", { name: "Post Task" }).click();
    const photos = poster.getByRole("dialog", { name: "Add photos" });
    await expect.poll(() => photos.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(new URL(poster.url()).search).toBe("");
    await photos.getByRole("button", { name: "Skip photos" }).click();
    await poster.reload();
    await poster.getByRole("heading", { name: "Tasks I Posted" }).waitFor({ timeout: 15_000 });
    await poster.waitForLoadState("networkidle");
    expect(await poster.getByRole("dialog").count()).toBe(0);
    poster.assertClean();
    provider.assertClean();
  });
});
