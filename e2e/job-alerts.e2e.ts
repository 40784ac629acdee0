import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { formatViolations, newPerson, seriousAxeViolations, useSharedServer } from "./harness.js";
import { taskNear21401 } from "../test/fixtures/task-bodies.js";
import { NEAR_MESSAGE } from "../src/shared/task-filters.js";

// Issue 15, job alerts (docs/product.md#job-alerts): the demo provider saves an alert in settings
// (and one more from the job board's filters) and keeps the page open; the demo poster posts a matching task (through the API); the provider's
// bell shows "New task near you" without a reload, and the notice opens the task.

const e2e = useSharedServer();

/** The machine may be busy (two cores, several servers): give each UI change time to land. */
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000, interval: 100 });

async function expectAxeClean(p: Page, label: string) {
  const violations = await seriousAxeViolations(p);
  expect(violations, `${label}: ${formatViolations(violations)}`).toEqual([]);
}

/** Nothing on the page is wider than the window (no sideways scrolling). */
const scrollsSideways = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe("job alerts", () => {
  it("saves an alert in settings and rings the provider's bell live when a matching task is posted", async () => {
    // A provider and (below) a poster of this journey's own on the run's shared server.
    const provider = await newPerson(e2e, "provider", "/", { viewport: { width: 1366, height: 900 } });
    await provider.goto(`${e2e.server.url}/settings/alerts`);
    await eventually(() => provider.getByRole("link", { name: "Job alerts" }).getAttribute("aria-current")).toBe("page");
    await eventually(() => provider.getByText("You have no job alerts yet.").isVisible()).toBe(true);

    await provider.getByRole("button", { name: "Add an alert" }).click();
    const alert = provider.getByRole("group", { name: "Alert 1" });
    // Saved without a category or a place: each message under its field, nothing sent.
    await alert.getByLabel("ZIP code or lat,lon").fill("Annapolis");
    await provider.getByRole("button", { name: "Save alerts" }).click();
    await eventually(() => alert.getByText("Choose at least one category").isVisible()).toBe(true);
    expect(await alert.getByText(NEAR_MESSAGE).isVisible()).toBe(true);
    await expectAxeClean(provider, "alerts tab with errors");

    await alert.getByLabel("Pet Care").click();
    await alert.getByLabel("ZIP code or lat,lon").fill("21401");
    await alert.getByLabel("Lowest budget ($)").fill("20");
    await provider.getByRole("button", { name: "Save alerts" }).click();
    await eventually(() => provider.getByText("Job alerts saved", { exact: true }).first().isVisible()).toBe(true);
    const saved = await provider.request.get(`${e2e.server.url}/api/alerts`);
    expect(await saved.json()).toMatchObject({ alerts: [{ categories: ["pet"], near: "21401", radiusMiles: 10, minBudget: 20 }] });
    expect(await scrollsSideways(provider)).toBe(false);
    await expectAxeClean(provider, "alerts tab");
    await provider.screenshot({ path: "/tmp/alerts-shots/alerts-1366.png", fullPage: true });
    await provider.setViewportSize({ width: 390, height: 844 });
    expect(await scrollsSideways(provider)).toBe(false);
    await provider.screenshot({ path: "/tmp/alerts-shots/alerts-390.png", fullPage: true });
    await provider.setViewportSize({ width: 1366, height: 900 });

    // The job board's filters become one more alert, once; the provider comes back to settings.
    await provider.goto(`${e2e.server.url}/job-board?category=errands&near=21401&radiusMiles=25&minBudget=15`);
    const fromFilters = provider.getByRole("button", { name: "Create alert from these filters" });
    await eventually(() => fromFilters.isVisible()).toBe(true);
    await provider.setViewportSize({ width: 390, height: 844 });
    expect(await scrollsSideways(provider)).toBe(false);
    await provider.screenshot({ path: "/tmp/alerts-shots/board-390.png" });
    await provider.setViewportSize({ width: 1366, height: 900 });
    await fromFilters.click();
    await eventually(() => provider.getByText("Job alert created", { exact: true }).first().isVisible()).toBe(true);
    await fromFilters.click();
    await eventually(() => provider.getByText("You already have this alert", { exact: true }).first().isVisible()).toBe(true);
    const two = await provider.request.get(`${e2e.server.url}/api/alerts`);
    expect(await two.json()).toMatchObject({
      alerts: [{ categories: ["pet"] }, { categories: ["errands"], near: "21401", radiusMiles: 25, minBudget: 15 }],
    });
    await provider.goto(`${e2e.server.url}/settings/alerts`);
    await eventually(() => provider.getByRole("group", { name: "Alert 2" }).isVisible()).toBe(true);

    // The poster posts a matching task; the provider's page stays open.
    const title = `Walk Biscuit ${Date.now().toString(36)}`;
    const poster = await newPerson(e2e, "poster", "/");
    const task = await e2e.api<{ id: string }>(poster, "POST", "/api/tasks", taskNear21401({ title }));

    const bell = provider.getByRole("button", { name: /^Notifications, [1-9]\d* unread$/ });
    await eventually(() => bell.isVisible()).toBe(true);
    await bell.click();
    const notice = provider.getByRole("link", { name: new RegExp(`New task near you: ${title} · \\$40 · 3\\.3 mi`) });
    await eventually(() => notice.isVisible()).toBe(true);
    await expectAxeClean(provider, "bell open");
    await provider.screenshot({ path: "/tmp/alerts-shots/bell-1366.png" });
    await notice.click();
    await eventually(() => new URL(provider.url()).pathname).toBe(`/task/${task.id}`);
    await eventually(() => provider.getByRole("heading", { name: title }).isVisible()).toBe(true);
    // The sign-in page asks who is signed in before anyone is: that 401 is expected.
    for (const page of [provider, poster]) page.assertClean([/401 \(Unauthorized\)/]);
  });
});
