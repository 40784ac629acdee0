import { describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import type { FelixResponse } from "../src/shared/felix.js";
import { DEMO, formatViolations, newPage, seriousAxeViolations, signIn, useServerAndBrowser } from "./harness.js";

// Issue 33 in Chromium, one journey at a phone's width and one at a desktop's: Felix prices a cleaning by the hours it
// states and says so, asks one question about a vague task and uses the answer, and asks before
// "Use $X" lowers the budget the poster typed (docs/product.md#felix; decision 054).

const e2e = useServerAndBrowser();

async function expectAxeClean(page: Page) {
  const violations = await seriousAxeViolations(page);
  expect(violations, formatViolations(violations)).toEqual([]);
}

/** Signs the poster in, fills a single-place cleaning task and a typed budget, and opens Felix. */
async function openFelix(width: number, title: string, description: string, budget: string) {
  const context = await e2e.browser.newContext({ viewport: { width, height: width < 600 ? 844 : 900 } });
  const page = await newPage(context);
  await signIn(page, e2e.server.url, DEMO.poster, DEMO.password, "/dashboard");
  await page.evaluate(() => window.localStorage.clear());
  await page.getByRole("button", { name: "Post a Task" }).click();
  const wizard = page.getByRole("dialog", { name: "Post a Task" });
  await wizard.getByLabel("Task Title").fill(title);
  await wizard.getByLabel("Description").fill(description);
  await wizard.getByRole("combobox", { name: "Category" }).click();
  await page.getByRole("option", { name: "Cleaning & Organization" }).click();
  await wizard.getByRole("button", { name: "Next" }).click();
  await wizard.getByRole("combobox", { name: "Location", exact: true }).fill("Annapolis, MD");
  await wizard.getByLabel("Budget ($)").fill(budget);
  const answered = page.waitForResponse((r) => r.url().endsWith("/api/ask-felix") && r.request().method() === "POST");
  await wizard.getByRole("button", { name: "Ask Felix" }).click();
  const felix = page.getByRole("dialog", { name: "Ask Felix - Budget Helper" });
  const first = (await (await answered).json()) as FelixResponse;
  return { context, page, wizard, felix, first };
}

const log = (felix: Locator) => felix.getByRole("log");

// One width each: what they test is Felix's figures and words, which do not change with the width
// (neither journey asserts a layout), and the dialog is axe-checked at each of the two widths.
describe("Felix prices the work's own hours", () => {
  it.each([390])("at %i px, prices a cleaning of about 3 hours as 3 hours, and asks before lowering the typed $200", async (width) => {
    const { context, page, wizard, felix, first } = await openFelix(width, "Clean my kitchen and bathroom", "Should take about 3 hours", "200");
    // The first figure comes at once for a single place: no "Add a category and a start and end location".
    expect(await log(felix).textContent()).not.toContain("Add a category");
    expect(first.suggestedBudget).toBe(135);
    await expect.poll(() => log(felix).textContent(), { timeout: 15_000 }).toContain("I counted 3 hours because you said about 3 hours");
    // 3 hours at the cleaning rate's low and high ends: 3 × $30 and 3 × $60.
    expect(await felix.textContent()).toContain("Fair range $90 to $180: you said about 3 hours.");
    await expectAxeClean(page);

    await felix.getByRole("button", { name: "Use $135 as My Budget" }).click();
    const ask = felix.getByRole("alertdialog", { name: "Lower your budget?" });
    await ask.waitFor();
    expect(await ask.textContent()).toContain("Felix suggests $135, which is lower than the $200 you typed. Lower your budget to $135?");
    // Nothing is applied yet: the dialog stays open with the question.
    expect(await felix.getByRole("button", { name: "Use $135 as My Budget" }).count()).toBe(0);
    await expectAxeClean(page);
    await page.screenshot({ path: `/tmp/felix-hours-lower-${width}.png` });

    await ask.getByRole("button", { name: "Keep $200" }).click();
    await expect.poll(() => ask.isVisible()).toBe(false);
    await felix.getByRole("button", { name: "Use $135 as My Budget" }).click();
    await felix.getByRole("button", { name: "Lower to $135" }).click();
    await expect.poll(() => felix.isVisible()).toBe(false);
    expect(Number(await wizard.getByLabel("Budget ($)").inputValue())).toBe(135);
    page.assertClean([/401 \(Unauthorized\)/]);
    await context.close();
  });

  it.each([1366])("at %i px, asks a vague task how many rooms, then prices the answer", async (width) => {
    const { context, page, felix, first } = await openFelix(width, "Cleaning help", "Need some cleaning done", "300");
    expect(first.work?.question).toBe("rooms");
    await expect.poll(() => log(felix).textContent(), { timeout: 15_000 }).toContain("How many rooms (bedrooms) is it?");
    await expectAxeClean(page);
    await page.screenshot({ path: `/tmp/felix-hours-question-${width}.png` });

    const answered = page.waitForResponse((r) => r.url().endsWith("/api/ask-felix") && r.request().method() === "POST");
    await felix.getByLabel("Message Felix").fill("4");
    await felix.getByLabel("Message Felix").press("Enter");
    const second = (await (await answered).json()) as FelixResponse;
    expect(second.suggestedBudget).toBe(225);
    await expect.poll(() => log(felix).textContent()).toContain("I counted 5 hours because you told me 4 bedrooms");
    await felix.getByRole("button", { name: "Use $225 as My Budget" }).waitFor();
    page.assertClean([/401 \(Unauthorized\)/]);
    await context.close();
  });
});
