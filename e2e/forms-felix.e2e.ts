import { describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import type { FelixResponse } from "../src/shared/felix.js";
import { DEMO, formatViolations, newPage, seriousAxeViolations, signIn, useServerAndBrowser } from "./harness.js";

// Forms that help instead of refusing (docs/product.md#validation, #dates-and-hours,
// #post-a-task-draft) and Felix giving one task one budget (decision 026), in Chromium.

const e2e = useServerAndBrowser();

async function expectAxeClean(page: Page) {
  const violations = await seriousAxeViolations(page);
  expect(violations, formatViolations(violations)).toEqual([]);
}

/** The message tied to a control through aria-describedby, or null when it is not marked invalid. */
async function errorOf(control: Locator): Promise<string | null> {
  return control.evaluate((el) => {
    if (el.getAttribute("aria-invalid") !== "true") return null;
    const ids = (el.getAttribute("aria-describedby") ?? "").split(" ");
    return ids.map((id) => document.getElementById(id)).find((e) => e?.id.endsWith("-error"))?.textContent ?? null;
  });
}

async function fillDetails(page: Page, wizard: Locator, title: string) {
  await wizard.getByLabel("Task Title").fill(title);
  await wizard.getByLabel("Description").fill("Two boxes from the copy shop");
  await wizard.getByRole("combobox", { name: "Category" }).click();
  await page.getByRole("option", { name: "Delivery Services" }).click();
}

describe("Post a Task wizard", () => {
  it("refuses Next with each error under its field, and puts a server 400 under its field", async () => {
    const context = await e2e.browser.newContext();
    const page = await newPage(context);
    await signIn(page, e2e.server.url, DEMO.poster, DEMO.password, "/dashboard");
    await page.evaluate(() => window.localStorage.clear());
    await page.getByRole("button", { name: "Post a Task" }).click();
    const wizard = page.getByRole("dialog", { name: "Post a Task" });

    await wizard.getByRole("button", { name: "Next" }).click();
    const title = wizard.getByLabel("Task Title");
    await expect.poll(() => errorOf(title)).toBe("Title must be at least 3 characters");
    expect(await errorOf(wizard.getByLabel("Description"))).toBe("Description is required");
    expect(await title.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await wizard.getByText("Step 1 of 3: Task Details").isVisible()).toBe(true);
    await expectAxeClean(page);
    for (const width of [390, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: `/tmp/forms-felix-step1-errors-${width}.png` });
    }

    await fillDetails(page, wizard, "Deliver binders");
    await wizard.getByRole("button", { name: "Next" }).click();
    await wizard.getByText("Step 2 of 3: Location & Budget").waitFor();
    const budget = wizard.getByLabel("Budget ($)");
    expect(await budget.getAttribute("placeholder")).toBe("e.g. 45");
    await wizard.getByRole("combobox", { name: "Location", exact: true }).fill("12 Main St, Annapolis, MD");
    await budget.fill("45");
    // A date in the past is refused under the date, with the input's min at today.
    const date = wizard.getByLabel(/Date Needed/);
    expect(await date.getAttribute("min")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await date.fill("2020-11-01");
    await wizard.getByLabel(/^Time/).fill("10:00");
    await wizard.getByRole("button", { name: "Next" }).click();
    await expect.poll(() => errorOf(date)).toBe("The date needed can't be in the past. Pick today or a later date.");
    await page.setViewportSize({ width: 390, height: 900 });
    await page.screenshot({ path: "/tmp/forms-felix-past-date-390.png" });
    await page.setViewportSize({ width: 1366, height: 900 });
    await date.fill("");
    await wizard.getByLabel(/^Time/).fill("");
    await wizard.getByRole("button", { name: "Next" }).click();
    await wizard.getByText("Step 3 of 3: Review").waitFor();

    // A refusal the client schema let through (as the server words it) lands under the title, on step 1.
    await page.route("**/api/tasks", (route) =>
      route.request().method() === "POST"
        ? route.fulfill({
            status: 400,
            contentType: "application/json",
            body: JSON.stringify({
              message: "title: This title is already used by one of your open tasks",
              fieldErrors: { title: "This title is already used by one of your open tasks" },
            }),
          })
        : route.fallback(),
    );
    await wizard.getByRole("button", { name: "Post Task" }).click();
    await wizard.getByText("Step 1 of 3: Task Details").waitFor();
    await expect.poll(() => errorOf(wizard.getByLabel("Task Title"))).toBe("This title is already used by one of your open tasks");
    await page.screenshot({ path: "/tmp/forms-felix-server-400-1366.png" });
    expect(await page.getByText("title: ", { exact: false }).count()).toBe(0);
    await expectAxeClean(page);
    page.assertClean([/401 \(Unauthorized\)/, /400 \(Bad Request\)/]);
    await context.close();
  });

  it("keeps the draft across a reload and a sign-in from Post a Task, then posts it", async () => {
    const context = await e2e.browser.newContext();
    const page = await newPage(context);
    await page.goto(e2e.server.url);
    await page.getByRole("button", { name: "Post a Task" }).first().click();
    let wizard = page.getByRole("dialog", { name: "Post a Task" });
    await fillDetails(page, wizard, "Drop off a signed lease");

    await page.reload();
    await page.getByRole("button", { name: "Post a Task" }).first().click();
    wizard = page.getByRole("dialog", { name: "Post a Task" });
    expect(await wizard.getByLabel("Task Title").inputValue()).toBe("Drop off a signed lease");
    await wizard.getByRole("button", { name: "Next" }).click();
    await wizard.getByRole("combobox", { name: "Location", exact: true }).fill("58 West St, Annapolis, MD");
    await wizard.getByLabel("Budget ($)").fill("35");
    await wizard.getByRole("button", { name: "Next" }).click();
    await wizard.getByText("Step 3 of 3: Review").waitFor();
    await wizard.getByRole("button", { name: "Post Task" }).click();

    // Signed out: off to sign in, and back to the wizard with what was typed.
    await page.waitForURL((u) => u.pathname === "/sign-in");
    await page.getByLabel("Email").fill(DEMO.poster);
    await page.getByLabel(/^Password/).fill(DEMO.password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/" && u.searchParams.get("post") === "task");
    wizard = page.getByRole("dialog", { name: "Post a Task" });
    await wizard.getByText("Step 3 of 3: Review").waitFor();
    expect(await wizard.getByText("Drop off a signed lease").isVisible()).toBe(true);
    await expectAxeClean(page);
    await wizard.getByRole("button", { name: "Post Task" }).click();
    await expect.poll(() => page.getByText("Your task has been posted successfully!", { exact: true }).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await page.evaluate(() => window.localStorage.getItem("errandly:post-task-draft:v1"))).toBeNull();
    page.assertClean([/401 \(Unauthorized\)/]);
    await context.close();
  });
});

describe("Felix says the same thing to both sides", () => {
  it("gives the poster's wizard and the provider's evaluator the same fair budget for a one-stop route", async () => {
    const title = `Carry a cake via Glen Burnie ${Date.now().toString(36)}`;
    const posterContext = await e2e.browser.newContext();
    const poster = await newPage(posterContext);
    await signIn(poster, e2e.server.url, DEMO.poster, DEMO.password, "/dashboard");
    await poster.evaluate(() => window.localStorage.clear());
    await poster.getByRole("button", { name: "Post a Task" }).click();
    const wizard = poster.getByRole("dialog", { name: "Post a Task" });
    await fillDetails(poster, wizard, title);
    await wizard.getByRole("button", { name: "Next" }).click();
    await wizard.getByLabel("Multi-stop route").click();
    await wizard.getByRole("combobox", { name: "Start location", exact: true }).fill("Annapolis, MD");
    await wizard.getByRole("button", { name: "Add Stop" }).click();
    await wizard.getByRole("combobox", { name: "Stop 1", exact: true }).fill("Glen Burnie, MD");
    await wizard.getByRole("combobox", { name: "End location", exact: true }).fill("Baltimore, MD");
    await wizard.getByLabel("Budget ($)").fill("30");

    const posterAnswer = poster.waitForResponse((r) => r.url().endsWith("/api/ask-felix") && r.request().method() === "POST");
    await wizard.getByRole("button", { name: "Ask Felix" }).click();
    const helper = poster.getByRole("dialog", { name: "Ask Felix - Budget Helper" });
    const asPoster = (await (await posterAnswer).json()) as FelixResponse;
    if (!asPoster.pricingBreakdown) throw new Error(`no breakdown in ${JSON.stringify(asPoster)}`);
    expect(asPoster.pricingBreakdown.stops).toBe(1);

    // The breakdown's lines add up to its total.
    await helper.getByRole("button", { name: "See how we calculate this" }).click();
    const breakdown = poster.getByRole("dialog", { name: "Pricing Breakdown" });
    await breakdown.getByText(/^Mileage \(/).waitFor();
    const amounts = await breakdown.locator("dd").allTextContents();
    const cents = amounts.filter((a) => a.startsWith("$")).map((a) => Math.round(Number(a.replace(/[$,]/g, "")) * 100));
    // Lines, then Total, then Suggested budget.
    const [suggested, total, ...lines] = cents.reverse();
    expect(lines.reduce((a, b) => a + b, 0)).toBe(total);
    expect(suggested).toBe(asPoster.pricingBreakdown.suggestedBudget * 100);
    await breakdown.getByRole("button", { name: "Close" }).click();
    await helper.getByRole("button", { name: `Use $${asPoster.pricingBreakdown.suggestedBudget} as My Budget` }).click();
    await expect.poll(() => helper.isVisible()).toBe(false);
    await wizard.getByRole("button", { name: "Next" }).click();
    await wizard.getByText("Step 3 of 3: Review").waitFor();
    await wizard.getByRole("button", { name: "Post Task" }).click();
    await expect
      .poll(() => poster.getByText("Your task has been posted successfully!", { exact: true }).isVisible(), { timeout: 30_000 })
      .toBe(true);

    const providerContext = await e2e.browser.newContext();
    const provider = await newPage(providerContext);
    await signIn(provider, e2e.server.url, DEMO.provider, DEMO.password, "/job-board");
    await provider.getByRole("searchbox", { name: "Search tasks" }).fill(title);
    const card = provider.getByTestId("job-card").filter({ hasText: title }).first();
    await card.waitFor();
    const providerAnswer = provider.waitForResponse((r) => r.url().endsWith("/api/ask-felix") && r.request().method() === "POST");
    await card.getByRole("button", { name: "Ask Felix" }).click();
    const asProvider = (await (await providerAnswer).json()) as FelixResponse;
    expect(asProvider.pricingBreakdown).toEqual(asPoster.pricingBreakdown);
    expect(asProvider.evaluation).toMatchObject({ fairBudget: asPoster.pricingBreakdown.suggestedBudget, status: "fair", percentDiff: 0 });
    const evaluator = provider.getByRole("dialog", { name: "Ask Felix - Budget Evaluator" });
    await evaluator.getByRole("region", { name: "Budget evaluation" }).waitFor();
    await expectAxeClean(provider);

    // A follow-up about a proposed amount is judged against the fair range.
    const followUp = provider.waitForResponse((r) => r.url().endsWith("/api/ask-felix") && r.request().method() === "POST");
    await evaluator.getByLabel("Message Felix").fill("Would $45 be better?");
    await evaluator.getByLabel("Message Felix").press("Enter");
    const proposal = (await (await followUp).json()) as FelixResponse;
    expect(proposal.evaluation?.offeredBudget).toBe(45);
    expect(proposal.reply).toMatch(/fair range of \$[\d.]+ to \$[\d.]+/);
    poster.assertClean([/401 \(Unauthorized\)/]);
    provider.assertClean([/401 \(Unauthorized\)/]);
    await posterContext.close();
    await providerContext.close();
  });
});
