import { beforeAll, describe, expect, it } from "vitest";
import { request } from "playwright-core";
import { apiCall, applyThroughApi, approveThroughApi, DEMO, formatViolations, newPage, registerThroughApi, seriousAxeViolations, signIn, signInThroughApi, useServerAndBrowser } from "./harness.js";
import { parcelPickup } from "../test/fixtures/task-bodies.js";

// Issue 44 (docs/decisions/072-felix-sanity-bounds-couriers-and-offers.md), at a phone's width and a
// desktop's: a poster asks Felix about two offers and reads two different verdicts in their own words;
// a task Felix would misread gets its question ("I read 40 hours of work; is that right?") instead of
// a wild figure. Small on purpose, on the harness's public helpers only.

const e2e = useServerAndBrowser();
const offerers: { email: string; price: number }[] = [
  { email: "cheap@example.test", price: 30 },
  { email: "dear@example.test", price: 90 },
];

beforeAll(async () => {
  const admin = await request.newContext({ baseURL: e2e.server.url, extraHTTPHeaders: { origin: e2e.server.url } });
  await signInThroughApi(admin, DEMO.admin, DEMO.password);
  for (const [i, o] of offerers.entries()) {
    const api = await request.newContext({ baseURL: e2e.server.url, extraHTTPHeaders: { origin: e2e.server.url } });
    const me = await registerThroughApi(e2e.server, api, { email: o.email, firstName: `Offerer${i}`, lastName: "Test", password: "amber falcon ribbon 9" });
    await applyThroughApi(api, o.email, { address: "5 State Circle", city: "Annapolis", bio: "Evenings and weekends, with a car.", phone: `410-555-01${40 + i}` });
    await approveThroughApi(admin, me.id);
    await api.dispose();
  }
  await admin.dispose();
});

describe.each([
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
])("Felix at $width px", (viewport) => {
  it("a poster asks Felix about two offers and reads two different verdicts", async () => {
    const poster = await newPage(await e2e.browser.newContext({ viewport }));
    await signIn(poster, e2e.server.url, DEMO.poster, DEMO.password, "/dashboard");
    // The signed-out page's "who am I" answers 401 before signing in, as in offers.e2e.ts.
    poster.problems.length = 0;
    const task = await e2e.api<{ id: string }>(poster, "POST", "/api/tasks", parcelPickup(`Two offers at ${viewport.width}`, { hiringMode: "offers", budget: 40 }));
    for (const o of offerers) {
      const api = await request.newContext({ baseURL: e2e.server.url, extraHTTPHeaders: { origin: e2e.server.url } });
      await signInThroughApi(api, o.email, "amber falcon ribbon 9");
      await apiCall(api, "PUT", `/api/tasks/${task.id}/offer`, { price: o.price, message: `I can do it for $${o.price}.`, availability: "Tomorrow" });
      await api.dispose();
    }
    await poster.goto(`${e2e.server.url}/task/${task.id}`);
    const cards = poster.getByTestId("offer-card");
    await expect.poll(() => cards.count(), { timeout: 15_000 }).toBe(2);

    const verdicts: string[] = [];
    for (const o of offerers) {
      await cards.filter({ hasText: `I can do it for $${o.price}.` }).getByRole("button", { name: "Ask Felix" }).click();
      const dialog = poster.getByRole("dialog");
      await expect.poll(() => dialog.getByText(`This $${o.price} offer is`).count(), { timeout: 15_000 }).toBeGreaterThan(0);
      expect(await dialog.innerText()).not.toContain("before claiming");
      expect(formatViolations(await seriousAxeViolations(poster))).toBe("");
      verdicts.push(await dialog.getByRole("region", { name: "Budget evaluation" }).innerText());
      await poster.keyboard.press("Escape");
      await expect.poll(() => dialog.count()).toBe(0);
    }
    expect(verdicts[0]).toContain("Fair Price");
    expect(verdicts[1]).toContain("Above Market");
    poster.assertClean();
  });

  it("a task Felix would misread gets its question instead of a wild figure", async () => {
    const poster = await newPage(await e2e.browser.newContext({ viewport }));
    await signIn(poster, e2e.server.url, DEMO.poster, DEMO.password, "/dashboard");
    const task = await e2e.api<{ id: string }>(poster, "POST", "/api/tasks", parcelPickup(`Clear the attic at ${viewport.width}`, { category: "other", description: "About 40 hours of work clearing out the attic.", hiringMode: "offers" }));
    // A verified provider reads the task and asks about the price they are about to offer.
    const provider = await newPage(await e2e.browser.newContext({ viewport }));
    await signIn(provider, e2e.server.url, offerers[0]?.email ?? "", "amber falcon ribbon 9", "/dashboard");
    provider.problems.length = 0;
    await provider.goto(`${e2e.server.url}/task/${task.id}`);
    await provider.getByLabel("Your price ($)").fill("60");
    // The offer form's own Ask Felix (the page's other one judges the task's budget).
    await provider.getByText("Felix judges the price you type").locator("..").getByRole("button", { name: "Ask Felix" }).click();
    const dialog = provider.getByRole("dialog");
    await expect.poll(() => dialog.getByText("Your $60 offer is").count(), { timeout: 15_000 }).toBeGreaterThan(0);
    // Not the $1,200 of 40 hours at $30: the usual job, and the provider is told why.
    expect(await dialog.innerText()).toContain("The task reads as 40 hours of work");
    expect(await dialog.innerText()).not.toContain("$1,200");
    expect(formatViolations(await seriousAxeViolations(provider))).toBe("");
    provider.assertClean();
    // The poster's own question about it, through the same endpoint the wizard uses.
    const answer = await e2e.api<{ reply: string; suggestedBudget: number }>(poster, "POST", "/api/ask-felix", { message: "Please calculate the budget for this task.", mode: "recommend", context: { taskId: task.id } });
    expect(answer.reply).toContain("I read 40 hours of work; is that right?");
    expect(answer.suggestedBudget).toBeLessThan(200);
  });
});
