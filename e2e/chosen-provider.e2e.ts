import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { atBothWidths, formatViolations, newPerson, PHONE, seriousAxeViolations, useSharedServer, type TestPage } from "./harness.js";
import { parcelPickup } from "../test/fixtures/task-bodies.js";

// A provider the poster chose, as the poster sees it (issue 41; decision 082): a request declined,
// then another accepted, each said on the task page (not only in the bell), the accepted one not as
// "Your task was claimed" and with no Decline; and an offer accepted with "Accept and go to payment",
// after which the Payment Required card is in view and says "You accepted <name>'s offer", even at a
// phone's width where it sits below the fold. Walked once at a phone's width; each screen axe clean
// at a phone's width and a desktop's.

const SHOTS = join(tmpdir(), "errandly-chosen-provider-shots");
const e2e = useSharedServer();
let poster: TestPage;
let provider: TestPage;
let providerId = "";
let providerName = "";

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // A poster and a provider of this file's own on the run's shared server.
  [poster, provider] = await Promise.all([newPerson(e2e, "poster"), newPerson(e2e, "provider")]);
  const me = await e2e.api<{ id: string; firstName: string; lastName: string }>(provider, "GET", "/api/auth/user");
  providerId = me.id;
  providerName = `${me.firstName} ${me.lastName.charAt(0)}.`;
});
afterAll(async () => {
  await poster.context().close();
  await provider.context().close();
});

const requestTask = async (title: string) =>
  (await e2e.api<{ id: string }>(poster, "POST", "/api/tasks", parcelPickup(title, { request: { providerId, windowHours: 24, fallback: "open" } }))).id;

const axeClean = async () => expect(formatViolations(await seriousAxeViolations(poster))).toBe("");
/** The poster's screen at a phone's width and a desktop's: axe clean, and a screenshot of each. */
const layoutAtBothWidths = (name: string) =>
  atBothWidths(poster, async (width) => {
    await axeClean();
    await poster.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
  });

describe("a provider the poster chose, each screen at 390 and 1366 px", () => {
  it("a declined request, then an accepted one, each said on the task page; an accepted offer leads to the card form", async () => {
    // A phone's width, where the payment card sits below the fold.
    const viewport = PHONE;
    await poster.setViewportSize(viewport);

    // The request is declined: the poster's page says so, and that the task opened as they chose.
    const declined = await requestTask(`Declined request at ${viewport.width}`);
    await e2e.api(provider, "PATCH", `/api/tasks/${declined}/decline-request`, {});
    await poster.goto(`${e2e.server.url}/task/${declined}`);
    const declinedLine = poster.getByText(`${providerName} declined your request. As you chose, your task is now open on the job board for every provider.`);
    await expect.poll(() => declinedLine.isVisible(), { timeout: 15_000 }).toBe(true);
    await layoutAtBothWidths("request-declined");

    // Another request is accepted: the bell and the page say the request was accepted, not claimed,
    // and the provider the poster chose has no Decline beside them.
    const accepted = await requestTask(`Accepted request at ${viewport.width}`);
    await e2e.api(provider, "PATCH", `/api/tasks/${accepted}/accept-request`);
    await poster.goto(`${e2e.server.url}/task/${accepted}`);
    await expect.poll(() => poster.getByRole("heading", { name: "Payment Required" }).isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => poster.getByText(`${providerName} accepted your request. Pay to confirm it;`, { exact: false }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await poster.getByText("claimed your task").count()).toBe(0);
    expect(await poster.getByRole("button", { name: "Decline This Provider" }).count()).toBe(0);
    expect(await poster.getByRole("heading", { name: "Your provider" }).isVisible()).toBe(true);
    await layoutAtBothWidths("request-accepted");
    await poster.getByRole("button", { name: /^Notifications, [1-9]\d* unread$/ }).click({ timeout: 15_000 });
    const notice = poster.getByText(`${providerName} accepted your request for "Accepted request at ${viewport.width}". Pay within`, { exact: false });
    await expect.poll(() => notice.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await poster.getByText(`was claimed by ${providerName}`, { exact: false }).count()).toBe(0);
    await atBothWidths(poster, axeClean);
    await poster.keyboard.press("Escape");

    // An offer: accepting says it leads to payment, and the card form's card comes into view.
    const offered = (await e2e.api<{ id: string }>(poster, "POST", "/api/tasks", parcelPickup(`Offered errand at ${viewport.width}`, { hiringMode: "offers" }))).id;
    await e2e.api(provider, "PUT", `/api/tasks/${offered}/offer`, { price: 36, message: "I can pick it up this afternoon.", availability: "Today after 2 pm" });
    await poster.goto(`${e2e.server.url}/task/${offered}`);
    await poster.getByRole("button", { name: "Accept $36 offer" }).click({ timeout: 15_000 });
    const confirm = poster.getByRole("alertdialog");
    await expect.poll(() => confirm.isVisible()).toBe(true);
    expect(await confirm.getByRole("button", { name: /Accept and pay/ }).count()).toBe(0);
    await atBothWidths(poster, axeClean);
    await confirm.getByRole("button", { name: "Accept and go to payment" }).click();
    const payment = poster.getByRole("heading", { name: "Payment Required" });
    // In the viewport (its heading's focus after the dialog closes is payment-required-card.test.tsx's), below the sticky header, once the smooth scroll has ended.
    await expect
      .poll(() => payment.evaluate((h) => { const r = h.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; }), { timeout: 15_000 })
      .toBe(true);
    expect(await poster.getByText(`You accepted ${providerName}'s offer. Pay to confirm it;`, { exact: false }).isVisible()).toBe(true);
    expect(await poster.getByRole("button", { name: /^Pay by card \(/ }).isVisible()).toBe(true);
    expect(await poster.getByRole("button", { name: "Decline This Provider" }).count()).toBe(0);
    await poster.screenshot({ path: join(SHOTS, `offer-accepted-viewport-${viewport.width}.png`) });
    await layoutAtBothWidths("offer-accepted");
    poster.assertClean();
    provider.assertClean();
  });
});
