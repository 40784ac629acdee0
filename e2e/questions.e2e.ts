import { beforeAll, describe, expect, it } from "vitest";
import { atBothWidths, formatViolations, newPage, newPerson, PHONE, seriousAxeViolations, useSharedServer, type TestPage } from "./harness.js";
import { parcelPickup } from "../test/fixtures/task-bodies.js";

// Public questions (docs/product.md, Public questions): a provider asks on the task page with a
// phone number and an e-mail address in the question, which everyone sees masked; the poster's bell
// rings, the poster answers on the page, the provider sees the answer without a reload, and so does
// a signed-in reader who is neither party, who reports the question; a signed-out visitor reads
// both, in the server-rendered HTML too. Walked once; each screen checked at a phone's width and a
// desktop's.

const e2e = useSharedServer();
let poster: TestPage;
let provider: TestPage;
let visitor: TestPage;
let reader: TestPage;

beforeAll(async () => {
  // People of this file's own on the run's shared server; the reader is neither party.
  [poster, provider, reader] = await Promise.all([newPerson(e2e, "poster"), newPerson(e2e, "provider"), newPerson(e2e, "poster")]);
  visitor = await newPage(await e2e.browser.newContext());
});

/** Nothing on the page is wider than the window. */
const noSidewaysScroll = (page: typeof poster) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
const axeClean = async (page: typeof poster) => expect(formatViolations(await seriousAxeViolations(page))).toBe("");

describe("public questions, each screen at 390 and 1366 px", () => {
  it("a provider asks with a phone number and an e-mail, shown masked; the poster answers; everyone reads both", async () => {
    for (const page of [poster, provider, visitor, reader]) await page.setViewportSize(PHONE);
    const title = "Parcel pickup with questions";
    const task = await e2e.api<{ id: string }>(poster, "POST", "/api/tasks", parcelPickup(title));
    const taskUrl = `${e2e.server.url}/task/${task.id}`;

    // The poster keeps the task open; their bell counts up live when the question arrives.
    await poster.goto(taskUrl);
    await expect.poll(() => poster.getByText("No questions yet.").isVisible(), { timeout: 15_000 }).toBe(true);

    // A signed-in reader who is neither party has the page open too.
    await reader.goto(taskUrl);
    await expect.poll(() => reader.getByText("No questions yet.").isVisible(), { timeout: 15_000 }).toBe(true);

    await provider.goto(taskUrl);
    const box = provider.getByLabel("Ask a question");
    await expect.poll(() => box.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await provider.getByText("Phone numbers, e-mail addresses and links are hidden, to keep payment on Errandly.").isVisible()).toBe(true);
    await box.fill("Can I call you on (410) 555-0199 or write to sam@example.com about the parcel?");
    await provider.getByRole("button", { name: "Post question" }).click();
    const masked = "Can I call you on [hidden: phone] or write to [hidden: e-mail] about the parcel?";
    await expect.poll(() => provider.getByText(masked).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await provider.getByText("555-0199").count()).toBe(0);
    await atBothWidths(provider, async () => {
      await axeClean(provider);
      expect(await noSidewaysScroll(provider)).toBe(true);
    });

    // The poster is told (the bell) and sees the question without a reload, then answers.
    const bell = poster.getByRole("button", { name: /^Notifications, [1-9]\d* unread$/ });
    await expect.poll(() => bell.isVisible(), { timeout: 15_000 }).toBe(true);
    await bell.click();
    await expect.poll(() => poster.getByText("A new question on your task").first().isVisible(), { timeout: 10_000 }).toBe(true);
    await poster.keyboard.press("Escape");
    await expect.poll(() => poster.getByText(masked).isVisible(), { timeout: 15_000 }).toBe(true);
    await poster.getByLabel("Your answer").fill("Please ask here. It is the blue door on the left.");
    await poster.getByRole("button", { name: "Post answer" }).click();
    await expect.poll(() => poster.getByText("It is the blue door on the left.").isVisible(), { timeout: 15_000 }).toBe(true);
    await atBothWidths(poster, async () => {
      await axeClean(poster);
      expect(await noSidewaysScroll(poster)).toBe(true);
    });

    // The provider's open page shows the answer live, and so does the reader's, which showed the question without a reload.
    await expect.poll(() => provider.getByText("Please ask here. It is the blue door on the left.").isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => reader.getByText("Please ask here. It is the blue door on the left.").isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await reader.getByText(masked).isVisible()).toBe(true);
    expect(await reader.getByLabel("Ask a question").count()).toBe(0);

    // The reader reports the question; its asker is offered no flag on their own.
    expect(await provider.getByRole("button", { name: /^Report the question by/ }).count()).toBe(0);
    await reader.getByRole("button", { name: /^Report the question by/ }).click();
    const dialog = reader.getByRole("dialog", { name: /^Report the question by/ });
    await expect.poll(() => dialog.isVisible(), { timeout: 10_000 }).toBe(true);
    await dialog.getByLabel(/^Reason/).selectOption("scam");
    await dialog.getByLabel(/^What happened/).fill("Asks to be called outside the app.");
    await atBothWidths(reader, () => axeClean(reader));
    await dialog.getByRole("button", { name: "Send report" }).click();
    await expect.poll(() => reader.getByText("Report sent").first().isVisible(), { timeout: 10_000 }).toBe(true);

    // The task page's HTML holds both before any script runs (server-rendered, decision 036).
    const html = await (await fetch(taskUrl)).text();
    expect(html).toContain(masked);
    expect(html).toContain("Please ask here. It is the blue door on the left.");

    // A signed-out visitor reads both, and is offered no form.
    await visitor.goto(taskUrl);
    await expect.poll(() => visitor.getByText(masked).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await visitor.getByText("Please ask here. It is the blue door on the left.").isVisible()).toBe(true);
    expect(await visitor.getByLabel("Ask a question").count()).toBe(0);
    await atBothWidths(visitor, async (width) => {
      await axeClean(visitor);
      expect(await noSidewaysScroll(visitor)).toBe(true);
      await visitor.screenshot({ path: `/tmp/q-shots/visitor-${width}.png`, fullPage: true });
    });
    await atBothWidths(poster, async (width) => {
      await poster.screenshot({ path: `/tmp/q-shots/poster-${width}.png`, fullPage: true });
    });

    poster.assertClean();
    provider.assertClean();
    reader.assertClean();
    // Signed out, the page asks who is signed in: that 401 is expected.
    visitor.assertClean([/401 \(Unauthorized\)/]);
  });
});
