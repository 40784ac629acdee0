import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { formatViolations, connectBrowser, newPage, seriousAxeViolations, startServer, type RunningServer } from "./harness.js";
import { NEAR_MESSAGE, unknownZipMessage } from "../src/shared/task-filters.js";

// Issue 15, "Filters that match how people look for work" (docs/product.md#job-board-filters): a
// visitor filters the demo board by place, radius and budget; the filters live in the URL, survive a
// reload, come and go with Back; an empty search says what to loosen; "Near me" uses the browser's
// position. The demo data: two open tasks in Annapolis (ZIP 21401), $25 and $30, the rest farther.

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Awaited<ReturnType<typeof newPage>>;

beforeAll(async () => {
  server = await startServer();
  browser = await connectBrowser();
  // A browser that allows its position: Annapolis, near the demo tasks.
  context = await browser.newContext({ permissions: ["geolocation"], geolocation: { latitude: 38.9784, longitude: -76.4922 } });
});
// A page per test, so the browser problems one test expects are not another's (closed with the browser).
beforeEach(async () => {
  page = await newPage(context);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The machine may be busy (two cores, several servers): give each UI change time to land. */
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000, interval: 100 });

const titles = (p: Page) => p.getByTestId("job-card").getByRole("heading").allInnerTexts();
const query = (p: Page) => new URL(p.url()).search;

async function expectAxeClean(p: Page, label: string) {
  const violations = await seriousAxeViolations(p);
  expect(violations, `${label}: ${formatViolations(violations)}`).toEqual([]);
}

describe("job board filters", () => {
  it("sets place, radius and budget in the panel, keeps them in the URL across reload and Back", async () => {
    await page.goto(`${server.url}/job-board`);
    await eventually(() => page.getByTestId("job-card").count()).toBeGreaterThan(5);
    const everything = await page.getByTestId("job-card").count();
    // No distance on the unfiltered board.
    expect(await page.getByTestId("job-card-distance").count()).toBe(0);

    await page.getByRole("button", { name: "Filter" }).click();
    const panel = page.getByRole("form", { name: "Filter tasks" });
    await panel.getByLabel("Near (ZIP code)").fill("21401");
    await panel.getByRole("radio", { name: "5 mi", exact: true }).click();
    await panel.getByLabel("Budget from ($)").fill("30");
    await expectAxeClean(page, "filter panel open");
    await panel.getByRole("button", { name: "Show tasks" }).click();

    await eventually(() => query(page)).toBe("?near=21401&radiusMiles=5&minBudget=30");
    await eventually(() => titles(page)).toEqual(["Farmers market shopping"]);
    expect(await page.getByTestId("job-card-distance").first().innerText()).toMatch(/^\d+(\.\d)? mi$/);
    const chips = page.getByRole("list", { name: "Active filters" });
    expect(await chips.getByRole("button").allInnerTexts()).toEqual(["Within 5 mi of 21401", "$30 or more", "Clear filters"]);
    await expectAxeClean(page, "filtered board");

    await page.reload();
    await eventually(() => titles(page)).toEqual(["Farmers market shopping"]);
    expect(query(page)).toBe("?near=21401&radiusMiles=5&minBudget=30");
    expect(await chips.getByRole("button", { name: "Remove filter: $30 or more" }).isVisible()).toBe(true);

    // Removing the budget chip is one step; Back brings it back.
    await chips.getByRole("button", { name: "Remove filter: $30 or more" }).click();
    await eventually(() => query(page)).toBe("?near=21401&radiusMiles=5");
    await eventually(() => titles(page)).toEqual(["Pick up dry cleaning and drop at home", "Farmers market shopping"]);
    await page.goBack();
    await eventually(() => query(page)).toBe("?near=21401&radiusMiles=5&minBudget=30");
    await eventually(() => titles(page)).toEqual(["Farmers market shopping"]);
    // And Back once more leaves the filters: the whole board again.
    await page.goBack();
    await eventually(() => query(page)).toBe("");
    await eventually(() => page.getByTestId("job-card").count()).toBe(everything);
    page.assertClean();
  });

  it("opens and closes the panel from the keyboard, focus back on its button", async () => {
    await page.goto(`${server.url}/job-board`);
    const button = page.getByRole("button", { name: "Filter" });
    const panel = page.getByRole("form", { name: "Filter tasks" });
    await button.focus();
    await page.keyboard.press("Enter");
    await panel.getByLabel("Near (ZIP code)").waitFor();
    expect(await button.getAttribute("aria-expanded")).toBe("true");
    await page.keyboard.press("Escape");
    await eventually(() => panel.count()).toBe(0);
    expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await button.getAttribute("aria-expanded")).toBe("false");
    // A second press on the button closes the open panel instead of reopening it.
    await button.click();
    await panel.waitFor();
    await button.click();
    await eventually(() => panel.count()).toBe(0);
  });

  it("says what to loosen when nothing matches", async () => {
    // The demo's cleaning tasks are in Columbia and Towson, 15-30 miles from Annapolis.
    await page.goto(`${server.url}/job-board?category=cleaning&near=21401&radiusMiles=5`);
    await eventually(() => page.getByRole("status").filter({ hasText: "No tasks within" }).first().innerText()).toMatch(
      /^No tasks within 5 miles; \d+ within (10|25|50)\.$/,
    );
    await expectAxeClean(page, "empty board");
    page.assertClean();
  });

  it("refuses a wrong place under its field, and an unknown ZIP code with the server's message", async () => {
    await page.goto(`${server.url}/job-board`);
    await page.getByRole("button", { name: "Filter" }).click();
    const panel = page.getByRole("form", { name: "Filter tasks" });
    await panel.getByLabel("Near (ZIP code)").fill("2140");
    await panel.getByRole("button", { name: "Show tasks" }).click();
    await eventually(() => panel.getByText(NEAR_MESSAGE).isVisible()).toBe(true);
    expect(query(page)).toBe("");
    await page.keyboard.press("Escape");

    await page.goto(`${server.url}/job-board?near=00000&radiusMiles=10`);
    // The server's sentence alone, without the field's name before it (issue 27).
    await eventually(() => page.getByRole("alert").filter({ hasText: "ZIP code 00000" }).innerText()).toBe(unknownZipMessage("00000"));
    // The browser logs the 400 itself; the page showed it.
    page.assertClean([/400 \(Bad Request\)/]);
  });

  // Issue 27: the position stays in the address; the ZIP box and the chips say "Near me".
  it.each([
    [390, 844],
    [1366, 900],
  ])("Near me searches around the browser's position without showing it, and sorts by distance, at %i px", async (width, height) => {
    await page.setViewportSize({ width, height });
    await page.goto(`${server.url}/job-board`);
    await page.getByRole("button", { name: "Filter" }).click();
    const panel = page.getByRole("form", { name: "Filter tasks" });
    await panel.getByRole("button", { name: "Near me" }).click();
    await eventually(() => panel.getByText("Using your current location.", { exact: false }).isVisible()).toBe(true);
    expect(await panel.getByLabel("Near (ZIP code)").inputValue()).toBe("");
    await panel.getByRole("radio", { name: "Distance: nearest first" }).click();
    await expectAxeClean(page, `Near me in the panel at ${width} px`);
    await panel.getByRole("button", { name: "Show tasks" }).click();
    await eventually(() => query(page)).toBe("?near=38.98%2C-76.49&radiusMiles=25&sort=distance");
    await eventually(async () => (await page.getByTestId("job-card-distance").allInnerTexts()).length).toBeGreaterThan(1);
    const miles = (await page.getByTestId("job-card-distance").allInnerTexts()).map((t) => Number.parseFloat(t));
    expect(miles).toEqual([...miles].sort((a, b) => a - b));
    expect(miles.every((m) => m <= 25)).toBe(true);
    const chips = page.getByRole("list", { name: "Active filters" });
    expect(await chips.getByRole("button").allInnerTexts()).toEqual(["Near me, within 25 mi", "Clear filters"]);
    expect(await page.locator("body").innerText()).not.toContain("38.98");
    await expectAxeClean(page, `board near me at ${width} px`);

    // Opened again, the panel still says where it searches, with the box empty; a ZIP code replaces it.
    await page.getByRole("button", { name: "Filter (filters on)" }).click();
    await eventually(() => panel.getByText("Using your current location.", { exact: false }).isVisible()).toBe(true);
    expect(await panel.getByLabel("Near (ZIP code)").inputValue()).toBe("");
    await panel.getByLabel("Near (ZIP code)").fill("21401");
    expect(await panel.getByText("Using your current location.", { exact: false }).count()).toBe(0);
    await panel.getByRole("button", { name: "Show tasks" }).click();
    await eventually(() => query(page)).toBe("?near=21401&radiusMiles=25&sort=distance");
    expect(await chips.getByRole("button").allInnerTexts()).toEqual(["Within 25 mi of 21401", "Clear filters"]);
    page.assertClean();
  });
});

// The directory's part of issue 15 (docs/product.md#verification, "Directory filters"): the demo has
// one approved provider, Devon P., in ZIP 21401 (Annapolis); 21701 (Frederick) is about 55 miles away.
describe("provider directory filters", () => {
  it("filters by place and service in the URL, across reload and Back, and says when nothing matches", async () => {
    await page.goto(`${server.url}/providers`);
    const cards = page.getByRole("list").getByRole("heading", { level: 2 });
    await eventually(() => cards.allInnerTexts()).toEqual(["Devon P."]);
    const form = page.getByRole("form", { name: "Filter providers" });

    await form.getByLabel("Near (ZIP code)").fill("21701");
    await form.getByRole("button", { name: "Search" }).click();
    await eventually(() => query(page)).toBe("?near=21701&radiusMiles=25");
    await eventually(() => page.getByRole("status").filter({ hasText: "No providers match these filters" }).count()).toBe(1);

    await form.getByLabel("Near (ZIP code)").fill("21401");
    await form.getByRole("button", { name: "Search" }).click();
    await eventually(() => query(page)).toBe("?near=21401&radiusMiles=25");
    await eventually(() => cards.allInnerTexts()).toEqual(["Devon P."]);
    expect(await page.getByText("· 0 mi").count()).toBe(1);

    await form.getByRole("combobox", { name: "Service" }).click();
    await page.getByRole("option", { name: "Pet Care" }).click();
    await eventually(() => query(page)).toBe("?near=21401&radiusMiles=25&serviceType=pet");
    await eventually(() => page.getByRole("status").filter({ hasText: "No providers match these filters" }).count()).toBe(1);
    await expectAxeClean(page, "directory, nothing found");

    await page.reload();
    await eventually(() => page.getByRole("status").filter({ hasText: "No providers match these filters" }).count()).toBe(1);
    await page.goBack();
    await eventually(() => query(page)).toBe("?near=21401&radiusMiles=25");
    await eventually(() => cards.allInnerTexts()).toEqual(["Devon P."]);
    await expectAxeClean(page, "directory, filtered");
    // Back again: the box follows the URL's place.
    await page.goBack();
    await eventually(() => query(page)).toBe("?near=21701&radiusMiles=25");
    await eventually(() => form.getByLabel("Near (ZIP code)").inputValue()).toBe("21701");
    page.assertClean();
  });
});
