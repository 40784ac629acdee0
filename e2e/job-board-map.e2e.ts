import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { TaskPublic } from "../src/shared/tasks.js";
import {
  DEMO,
  TILE_HOST,
  clusterMarkers,
  formatViolations,
  connectBrowser,
  newPage,
  seriousAxeViolations,
  signIn,
  startServer,
  taskMarkers,
  tasksOnMap,
  type RunningServer,
} from "./harness.js";

// Issue 15, the job board's map (docs/product.md#job-board-map, docs/decisions/031-job-board-map.md):
// the List / Map toggle in the URL, markers at the approximate positions with no tiles (the tile
// server is blocked, as offline), a marker opened by keyboard, "Search this area" after moving the
// map, the task page's small map, and "Near me" with and without the browser's position. The demo
// data: twelve open tasks around Maryland, two of them in Annapolis at the same approximate spot.

let server: RunningServer;
let browser: Browser;

// Blocked tiles log their failure.
const EXPECTED = [/net::ERR_FAILED/];

beforeAll(async () => {
  server = await startServer();
  browser = await connectBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A page with no network beyond the app: every tile request fails, as offline. */
async function offlinePage(context: BrowserContext) {
  const page = await newPage(context);
  await page.route(TILE_HOST, (route) => route.abort());
  return page;
}

/** The machine may be busy (two cores, several servers): give each UI change time to land. */
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000, interval: 100 });

const query = (p: Page) => new URL(p.url()).searchParams;

async function expectAxeClean(p: Page, label: string) {
  const violations = await seriousAxeViolations(p);
  expect(violations, `${label}: ${formatViolations(violations)}`).toEqual([]);
}

async function expectNoSidewaysScroll(p: Page, label: string) {
  const widths = await p.evaluate(() => ({ scroll: document.documentElement.scrollWidth, view: window.innerWidth }));
  expect(widths.scroll, label).toBeLessThanOrEqual(widths.view);
}

describe("job board map", () => {
  it("toggles to the map in the URL, shows every task as a marker without tiles, and keeps the map across reload", async () => {
    const page = await offlinePage(await browser.newContext());
    await page.goto(`${server.url}/jobs`);
    await eventually(() => page.getByTestId("job-card").count()).toBeGreaterThan(5);
    const open = (await page.evaluate(async () => (await (await fetch("/api/tasks/open?pageSize=100")).json()) as TaskPublic[])).filter(
      (t) => t.approxLat !== null,
    ).length;

    await page.getByRole("button", { name: "Map" }).click();
    await eventually(() => query(page).get("view")).toBe("map");
    await eventually(() => tasksOnMap(page)).toBe(open);
    // The two Annapolis tasks share a spot: a cluster, reached like any button.
    expect(await clusterMarkers(page).count()).toBeGreaterThan(0);
    await eventually(() => page.getByText("Map tiles are unavailable").isVisible()).toBe(true);
    await eventually(() => page.getByRole("status").filter({ hasText: `${open} tasks on the map.` }).count()).toBe(1);
    // The list is not shown, nor asked for, under the map.
    expect(await page.getByTestId("job-card").count()).toBe(0);
    await expectAxeClean(page, "map view");

    await page.reload();
    expect(query(page).get("view")).toBe("map");
    await eventually(() => tasksOnMap(page)).toBe(open);
    expect(await page.getByRole("button", { name: "Map", pressed: true }).count()).toBe(1);

    // Back to the list: the default, and view leaves the URL.
    await page.getByRole("button", { name: "List" }).click();
    await eventually(() => query(page).has("view")).toBe(false);
    await eventually(() => page.getByTestId("job-card").count()).toBeGreaterThan(5);
    page.assertClean(EXPECTED);
  });

  it("opens a marker by keyboard: its card under the map, with a link to the task; a cluster zooms in", async () => {
    const page = await offlinePage(await browser.newContext());
    // Around Frederick, where one task starts.
    await page.goto(`${server.url}/jobs?view=map&bbox=-77.6,39.3,-77.2,39.55`);
    const marker = page.getByRole("button", { name: "Task: Help move a couch and boxes, $120" });
    await eventually(() => marker.count()).toBe(1);
    expect(await taskMarkers(page).count()).toBe(1);

    await marker.focus();
    await page.keyboard.press("Enter");
    const card = page.getByRole("region", { name: "Selected task: Help move a couch and boxes" });
    await eventually(() => card.isVisible()).toBe(true);
    // Focus moves to the card, so the next Tab reaches its link.
    await eventually(() => card.evaluate((el) => el === document.activeElement)).toBe(true);
    const link = card.getByRole("link", { name: "Help move a couch and boxes", exact: true });
    expect(await link.getAttribute("href")).toMatch(/^\/task\/[0-9a-f-]{36}$/);
    await expectAxeClean(page, "map with a card");

    // Annapolis: two tasks at one approximate spot. Enter on the cluster zooms until they part.
    await page.goto(`${server.url}/jobs?view=map&bbox=-76.6,38.9,-76.4,39.05`);
    const cluster = page.getByRole("button", { name: "2 tasks here. Zoom in" });
    await eventually(() => cluster.count()).toBe(1);
    await cluster.focus();
    await page.keyboard.press("Enter");
    await eventually(() => taskMarkers(page).allInnerTexts()).toEqual(["$25", "$30"]);
    expect(await taskMarkers(page).evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")))).toEqual([
      "Task: Pick up dry cleaning and drop at home, $25",
      "Task: Farmers market shopping, $30",
    ]);
    page.assertClean(EXPECTED);
  });

  it("moving the map offers Search this area, which searches the view's box", async () => {
    // Reduced motion: zooms jump, so the last key leaves the map still (no moveend after the click).
    const page = await offlinePage(await browser.newContext({ reducedMotion: "reduce" }));
    await page.goto(`${server.url}/jobs?view=map`);
    await eventually(() => tasksOnMap(page)).toBeGreaterThan(5);
    const everything = await tasksOnMap(page);
    const search = page.getByRole("button", { name: "Search this area" });
    expect(await search.count()).toBe(0);

    // By keyboard: the map takes focus, an arrow key pans, "+" zooms in twice (ending any glide).
    await page.getByRole("region", { name: /^Map of open tasks/ }).focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("+");
    await page.keyboard.press("+");
    await eventually(() => search.isVisible()).toBe(true);
    await search.click();

    await eventually(() => query(page).get("bbox")).toMatch(/^-?[\d.]+,-?[\d.]+,-?[\d.]+,-?[\d.]+$/);
    const bbox = query(page).get("bbox") ?? "";
    expect(query(page).get("view")).toBe("map");
    expect(await page.getByRole("button", { name: "Remove filter: In the map area" }).isVisible()).toBe(true);
    // The map shows what the API has for that box, fewer than before.
    const inBox = (await page.evaluate(async (b) => (await (await fetch(`/api/tasks/open?pageSize=100&bbox=${b}`)).json()) as TaskPublic[], bbox)).length;
    expect(inBox).toBeLessThan(everything);
    await eventually(() => tasksOnMap(page)).toBe(inBox);
    await eventually(() => search.count()).toBe(0);

    // The list shows the same area.
    await page.getByRole("button", { name: "List" }).click();
    await eventually(() => page.getByTestId("job-card").count()).toBe(inBox);
    page.assertClean(EXPECTED);
  });

  it("shows the task's approximate area on its page, in a box that does not move, at 390 and 1366 px", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await offlinePage(context);
    await page.goto(`${server.url}/jobs`);
    const href = await page.getByRole("link", { name: "Farmers market shopping", exact: true }).getAttribute("href");
    await page.goto(`${server.url}${href}`);
    const figure = page.getByTestId("task-area-map");
    await eventually(() => figure.getByTestId("task-area-circles").locator("circle").count()).toBe(1);
    expect(await figure.getByText(/^Map of the approximate area of this task \(Annapolis, MD\)/).count()).toBe(1);
    await eventually(() => figure.getByText("Map tiles are unavailable").isVisible()).toBe(true);
    // A fixed-height box: nothing below it moves when the tiles arrive.
    expect((await figure.boundingBox())?.height).toBeCloseTo(192, 0);
    await expectNoSidewaysScroll(page, "task page at 390 px");
    await expectAxeClean(page, "task page map");

    await page.goto(`${server.url}/jobs?view=map`);
    await eventually(() => tasksOnMap(page)).toBeGreaterThan(5);
    await expectNoSidewaysScroll(page, "map at 390 px");
    // The toggle fits beside the filter button on a phone.
    const toggle = await page.getByRole("group", { name: "View" }).boundingBox();
    expect((toggle?.x ?? 0) + (toggle?.width ?? 999)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1366, height: 900 });
    await expectNoSidewaysScroll(page, "map at 1366 px");
    page.assertClean(EXPECTED);
  });
});

describe("Near me", () => {
  it("without the browser's position: the provider's profile ZIP code, else a request to type one", async () => {
    const context = await browser.newContext();
    await context.clearPermissions();
    const page = await offlinePage(context);
    await page.goto(`${server.url}/jobs`);
    await page.getByRole("button", { name: "Filter" }).click();
    let panel = page.getByRole("form", { name: "Filter tasks" });
    await panel.getByRole("button", { name: "Near me" }).click();
    await eventually(() => panel.getByText("Your location is not available. Type a ZIP code instead.").isVisible()).toBe(true);
    expect(await panel.getByLabel("Near (ZIP code)").inputValue()).toBe("");
    await expectAxeClean(page, "Near me refused, signed out");

    // The demo provider's profile says 21401.
    await signIn(page, server.url, DEMO.provider, DEMO.password, "/dashboard");
    await page.goto(`${server.url}/jobs`);
    await page.getByRole("button", { name: "Filter" }).click();
    panel = page.getByRole("form", { name: "Filter tasks" });
    await panel.getByRole("button", { name: "Near me" }).click();
    await eventually(() => panel.getByLabel("Near (ZIP code)").inputValue()).toBe("21401");
    expect(await panel.getByText("Location is off, so we used the ZIP code from your profile.").isVisible()).toBe(true);
    await panel.getByRole("button", { name: "Show tasks" }).click();
    await eventually(() => query(page).get("near")).toBe("21401");
    page.assertClean(EXPECTED);
  });

  it("with the browser's position: that position, rounded, on the list and the map", async () => {
    const context = await browser.newContext({ permissions: ["geolocation"] });
    await context.setGeolocation({ latitude: 39.4143, longitude: -77.4105 });
    const page = await offlinePage(context);
    await page.goto(`${server.url}/jobs?view=map`);
    await page.getByRole("button", { name: "Filter" }).click();
    const panel = page.getByRole("form", { name: "Filter tasks" });
    await panel.getByRole("button", { name: "Near me" }).click();
    // The position stays out of the ZIP box (it is for a ZIP code); the panel says it is in use.
    await eventually(() => panel.getByText("Using your current location.").isVisible()).toBe(true);
    expect(await panel.getByLabel("Near (ZIP code)").inputValue()).toBe("");
    await panel.getByRole("radio", { name: "5 mi", exact: true }).click();
    await panel.getByRole("button", { name: "Show tasks" }).click();
    await eventually(() => query(page).get("near")).toBe("39.41,-77.41");
    // Within 5 miles of Frederick: the one task that starts there.
    await eventually(() => taskMarkers(page).evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")))).toEqual([
      "Task: Help move a couch and boxes, $120",
    ]);
    page.assertClean(EXPECTED);
  });
});
