import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { computePricing, routeMiles } from "../src/shared/felix-pricing.js";
import { estimateWork } from "../src/shared/felix-work.js";
import type { FelixResponse } from "../src/shared/felix.js";
import { createGeocoder } from "../src/server/adapters/geocoding/create-geocoder.js";
import { formatViolations, newPerson, seriousAxeViolations, useSharedServer } from "./harness.js";

// Felix in the browser: a poster gets a suggestion for a route and applies it; a provider
// evaluates a task from the job board. The server geocodes the typed town names.

const e2e = useSharedServer();

async function expectNoSeriousViolations(page: Page) {
  for (const dark of [false, true]) {
    await page.evaluate((on) => document.documentElement.classList.toggle("dark", on), dark);
    // Buttons fade their colours: measure contrast after the theme's transitions end. Only finite
    // ones (a spinner never finishes), and a transition cancelled by a later one counts as ended.
    await page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
          .map((a) => a.finished.catch(() => undefined)),
      ),
    );
    const violations = await seriousAxeViolations(page);
    expect(violations, `${dark ? "dark" : "light"}: ${formatViolations(violations)}`).toEqual([]);
  }
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
}

describe("Ask Felix", () => {
  it("suggests a budget for a poster's route and applies it to the form", async () => {
    const geocoder = createGeocoder({ GEOCODER_USER_AGENT: "errandly-e2e" });
    const [from] = await geocoder.search("Annapolis, MD", 1);
    const [to] = await geocoder.search("Baltimore, MD", 1);
    if (!from || !to) throw new Error("the gazetteer should know Annapolis and Baltimore");
    const work = estimateWork({ category: "delivery", title: "Carry a parcel to Baltimore", description: "One box, 10 pounds" });
    const expected = computePricing({ miles: routeMiles([from, to]), stops: 0, urgency: "standard", work }).suggestedBudget;

    // A poster of this test's own on the run's shared server.
    const page = await newPerson(e2e, "poster", "/dashboard");
    const context = page.context();
    await page.getByRole("button", { name: "Post a Task" }).click();
    const post = page.getByRole("dialog", { name: "Post a Task" });
    await post.getByLabel("Task Title").fill("Carry a parcel to Baltimore");
    await post.getByLabel("Description").fill("One box, 10 pounds");
    await post.getByRole("combobox", { name: "Category" }).click();
    await page.getByRole("option", { name: "Delivery Services" }).click();
    await post.getByRole("button", { name: "Next" }).click();

    await post.getByLabel("Multi-stop route").click();
    await post.getByRole("combobox", { name: "Start location", exact: true }).fill("Annapolis, MD");
    await post.getByRole("combobox", { name: "End location", exact: true }).fill("Baltimore, MD");
    await post.getByLabel("Budget ($)").click();

    await post.getByRole("button", { name: "Ask Felix" }).click();
    const felix = page.getByRole("dialog", { name: "Ask Felix - Budget Helper" });
    await expect.poll(() => felix.getByText("Felix will help you determine a fair budget based on your task details.").isVisible()).toBe(true);
    await expect.poll(() => felix.getByText("Start: Annapolis, MD").isVisible()).toBe(true);
    // The automatic question after 600 ms, then the answer.
    await expect.poll(() => felix.getByText("Please calculate the budget for this task.").isVisible()).toBe(true);
    const apply = felix.getByRole("button", { name: `Use $${expected} as My Budget` });
    await expect.poll(() => apply.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await felix.getByRole("log").textContent()).toContain(`I suggest a budget of $${expected}`);
    await expectNoSeriousViolations(page);

    await felix.getByRole("button", { name: "See how we calculate this" }).click();
    const breakdown = page.getByRole("dialog", { name: "Pricing Breakdown" });
    await expect.poll(() => breakdown.getByText(/^Mileage \(/).isVisible()).toBe(true);
    await breakdown.getByRole("button", { name: "Close" }).click();
    await expect.poll(() => breakdown.isVisible()).toBe(false);

    await apply.click();
    await expect.poll(() => page.getByText(`Felix's recommendation of $${expected} has been applied.`, { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => felix.isVisible()).toBe(false);
    expect(Number(await post.getByLabel("Budget ($)").inputValue())).toBe(expected);

    // Reopened, the conversation starts over.
    await post.getByRole("button", { name: "Ask Felix" }).click();
    await expect.poll(() => felix.getByText(/^You: /).count()).toBe(0);
    // The sign-in page asks who is signed in (401).
    page.assertClean([/401 \(Unauthorized\)/]);
    await context.close();
  });

  it("evaluates a task's budget for a provider on the job board", async () => {
    // A provider of this test's own on the run's shared server, on a job board with any open task.
    const page = await newPerson(e2e, "provider", "/job-board");
    const context = page.context();
    const answered = page.waitForResponse((r) => r.url().endsWith("/api/ask-felix") && r.request().method() === "POST");
    await page.getByRole("button", { name: "Ask Felix" }).first().click();
    const felix = page.getByRole("dialog", { name: "Ask Felix - Budget Evaluator" });
    await expect.poll(() => felix.getByText("Felix will help you evaluate if this task's budget is fair before claiming.").isVisible()).toBe(true);
    await expect.poll(() => felix.getByText("Please evaluate this task's budget.").isVisible()).toBe(true);
    const response = await answered;
    expect(response.status()).toBe(200);
    const body = (await response.json()) as FelixResponse;
    if (!body.evaluation) throw new Error(`no evaluation in ${JSON.stringify(body)}`);
    const { status, percentDiff, offeredBudget, fairBudget } = body.evaluation;
    const label = { high: "Great Opportunity", low: "Below Market", fair: "Fair Offer" }[status];
    const card = felix.getByRole("region", { name: "Budget evaluation" });
    await expect.poll(() => card.getByText(label).isVisible()).toBe(true);
    expect(await card.textContent()).toContain(`${percentDiff > 0 ? "+" : ""}${percentDiff}%`);
    expect(await card.textContent()).toContain(`$${offeredBudget}`);
    expect(await card.textContent()).toContain(`$${fairBudget}`);
    expect(await felix.getByRole("button", { name: /as My Budget/ }).count()).toBe(0);

    await expectNoSeriousViolations(page);

    // Shift+Enter is a new line, not a send.
    const input = felix.getByLabel("Message Felix");
    await input.fill("Is $10 fair?");
    await input.press("Shift+Enter");
    expect(await input.inputValue()).toBe("Is $10 fair?\n");
    expect(await felix.getByText(/^You: Is \$10 fair\?/).count()).toBe(0);

    // Enter sends; a failure shows Felix's trouble message and the error toast.
    await page.route("**/api/ask-felix", (route) => route.fulfill({ status: 500, contentType: "application/json", body: '{"message":"boom"}' }));
    await input.press("Enter");
    await expect
      .poll(() => felix.getByText("I'm having some trouble right now. You can manually enter a budget, or try asking me again.").isVisible())
      .toBe(true);
    // Exact: the toast's live region announces "Notification <title><text>" in one span while the toast
    // opens, and whether that span is still there depends on timing; only the toast's own text matches.
    await expect.poll(() => page.getByText("Unable to reach Felix. Please try again.", { exact: true }).isVisible()).toBe(true);
    // 401 from the sign-in page asking who is signed in; 500 is the failure this test injected.
    page.assertClean([/500 \(Internal Server Error\)/, /401 \(Unauthorized\)/]);
    await context.close();
  });
});
