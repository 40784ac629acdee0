import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request, type APIRequestContext, type Browser, type BrowserContext, type Page } from "playwright-core";
import { DEMO, formatViolations, connectBrowser, newPage, seriousAxeViolations, startServer, type RunningServer } from "./harness.js";

// The job board's first page and a task page arrive as HTML the server rendered with their data, so
// a phone paints the cards and the task before any script runs, and the web app adopts that HTML
// and the answers in it without asking for them again (issue 17,
// docs/decisions/036-server-rendered-data-pages.md). Tasks are posted through the real API.

let server: RunningServer;
let browser: Browser;
let poster: APIRequestContext;
let provider: APIRequestContext;

// In base 36: a run of digits in a title reads as a phone number and is masked (decision 070).
const STAMP = Date.now().toString(36);
const PET_TITLE = `Walk Biscuit around the harbour ${STAMP}`;
const PET_DESCRIPTION = "Biscuit is a calm beagle; the leash hangs by the door.";
const STREET = "12 Prince George St";
// Ends its <script> element and opens others, in the title and in the description.
const HOSTILE_TITLE = `</script><script>window.__xss=1</script><img src=x onerror="window.__xss=1"> ${STAMP}`;
const HOSTILE_DESCRIPTION = `<!-- </script><script>window.__xss=2</script> --> <img src=x onerror=alert(1)> \u2028 & "quotes"`;
let petTask = "";
let hostileTask = "";

/** The task page's little map asks the tile server, which tests never reach. */
const OFFLINE = [/net::ERR_/];
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000, interval: 100 });

async function signedIn(email: string): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL: server.url, extraHTTPHeaders: { origin: server.url } });
  const res = await api.post("/api/auth/login", { data: { email, password: DEMO.password } });
  expect(res.ok(), await res.text()).toBe(true);
  return api;
}

async function post(body: Record<string, unknown>): Promise<string> {
  const res = await poster.post("/api/tasks", { data: { budget: 45, location: STREET, city: "Annapolis", state: "MD", ...body } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** A browser context signed in as the API context's session, or a visitor's. */
/** Browsers on the US west coast, so the page's own clock differs from the office's the server writes. */
const READER_ZONE = "America/Los_Angeles";

async function contextFor(api: APIRequestContext | null, options: { javaScriptEnabled?: boolean; width?: number } = {}): Promise<BrowserContext> {
  const width = options.width ?? 390;
  const context = await browser.newContext({
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    viewport: { width, height: width < 600 ? 844 : 900 },
    timezoneId: READER_ZONE,
  });
  if (api) await context.addCookies((await api.storageState()).cookies);
  return context;
}

/** Opens `path` and records the data requests and layout shifts of its load (until the network is idle). */
async function load(page: Page, path: string): Promise<{ dataRequests: string[]; shift: number }> {
  const dataRequests: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname === "/api/tasks/open" || /^\/api\/tasks\/[0-9a-f-]{36}$/.test(url.pathname)) dataRequests.push(`${url.pathname}${url.search}`);
  });
  await page.addInitScript(() => {
    const shifts: number[] = [];
    Object.assign(window, { shifts });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) shifts.push((entry as PerformanceEntry & { value: number }).value);
    }).observe({ type: "layout-shift", buffered: true });
  });
  await page.goto(`${server.url}${path}`);
  await page.waitForLoadState("networkidle");
  const shift = await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts.reduce((a, b) => a + b, 0));
  return { dataRequests, shift };
}

const cardTitles = (page: Page) => page.getByTestId("job-card").getByRole("heading", { level: 2 }).allInnerTexts();

async function apiTitles(query: string): Promise<string[]> {
  const res = await fetch(`${server.url}/api/tasks/open?${query}`);
  return ((await res.json()) as { title: string }[]).map((t) => t.title);
}

async function expectAxeClean(page: Page, label: string) {
  const violations = await seriousAxeViolations(page);
  expect(violations, `${label}: ${formatViolations(violations)}`).toEqual([]);
}

beforeAll(async () => {
  server = await startServer();
  browser = await connectBrowser();
  poster = await signedIn(DEMO.poster);
  provider = await signedIn(DEMO.provider);
  petTask = await post({ title: PET_TITLE, description: PET_DESCRIPTION, category: "pet", scheduledDate: "2030-05-01T14:30:00-04:00" });
  hostileTask = await post({ title: HOSTILE_TITLE, description: HOSTILE_DESCRIPTION, category: "errands", budget: 30 });
});
afterAll(async () => {
  await poster?.dispose();
  await provider?.dispose();
  await browser?.close();
  await server?.stop();
});

describe("server-rendered job board and task page, JavaScript off", () => {
  it("the board's HTML holds its heading and its first page of cards, as the API lists them", async () => {
    const context = await contextFor(null, { javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/job-board`);
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Job Board");
    const expected = await apiTitles("pageSize=30");
    expect(expected.length).toBeGreaterThan(5);
    expect(await cardTitles(page)).toEqual(expected);
    expect(await page.getByTestId("job-card").first().isVisible()).toBe(true);
    // /jobs is the same page.
    await page.goto(`${server.url}/jobs`);
    expect(await cardTitles(page)).toEqual(expected);
    await context.close();
  });

  it("a category's board holds that category's cards only", async () => {
    const context = await contextFor(null, { javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/job-board?category=pet`);
    const titles = await cardTitles(page);
    expect(titles).toEqual(await apiTitles("category=pet&pageSize=30"));
    expect(titles).toContain(PET_TITLE);
    expect(titles).not.toContain(HOSTILE_TITLE);
    const badges = await page.getByTestId("job-card").evaluateAll((cards) => cards.map((card) => card.querySelector("span")?.textContent));
    expect(new Set(badges)).toEqual(new Set(["Pet Care"]));
    expect(await page.getByText("Showing tasks in Pet Care").isVisible()).toBe(true);
    await context.close();
  });

  it("a task page's HTML holds the task's title, budget, description and date, and nothing only its insiders may see", async () => {
    const context = await contextFor(null, { javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/tasks/${petTask}`);
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe(PET_TITLE);
    expect(await page.getByTestId("payment-box").getByRole("definition").first().innerText()).toBe("$45.00");
    expect(await page.getByText(PET_DESCRIPTION).isVisible()).toBe(true);
    // The server cannot know the reader's zone: the office's, named (the browser writes local time).
    expect(await page.locator("time").innerText()).toBe("May 1, 2030 at 2:30 PM EDT");
    expect(await page.getByText("Annapolis, MD").first().isVisible()).toBe(true);
    // Not in the markup, not in the data sent with it: the street, the poster's full name.
    const html = await (await fetch(`${server.url}/tasks/${petTask}`)).text();
    expect(html).not.toContain(STREET);
    const me = (await (await poster.get("/api/auth/user")).json()) as { firstName: string; lastName: string };
    expect(html).toContain(`${me.firstName} ${me.lastName.charAt(0)}.`);
    expect(html).not.toContain(`${me.firstName} ${me.lastName}`);
    await context.close();
  });

  it("an unknown task still gets the app, which says Task not found once it runs", async () => {
    const context = await contextFor(null);
    const page = await newPage(context);
    await page.goto(`${server.url}/task/00000000-0000-4000-8000-000000000000`);
    await eventually(() => page.getByRole("heading", { level: 1, name: "Task not found" }).isVisible()).toBe(true);
    page.assertClean([/404 \(Not Found\)/]);
    await context.close();
  });
});

describe("server-rendered job board and task page, JavaScript on", () => {
  it("a visitor's board hydrates without a request for its cards, without moving, then filters and opens a card", async () => {
    const context = await contextFor(null);
    const page = await newPage(context);
    const { dataRequests, shift } = await load(page, "/job-board");
    expect(dataRequests).toEqual([]);
    expect(shift).toBeLessThanOrEqual(0.05);
    expect(await cardTitles(page)).toEqual(await apiTitles("pageSize=30"));
    await expectAxeClean(page, "board");
    // The page answers: a category is a request of its own, and a card opens in place.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.getByRole("group", { name: "Categories" }).getByRole("button", { name: "Pet Care" }).click();
    await eventually(() => new URL(page.url()).search).toBe("?category=pet");
    await eventually(() => cardTitles(page)).toEqual(await apiTitles("category=pet&pageSize=30"));
    await page.getByRole("link", { name: PET_TITLE, exact: true }).click();
    await eventually(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(PET_TITLE);
    expect(await page.evaluate(() => "sameDocument" in window)).toBe(true);
    page.assertClean([...OFFLINE]);
    await context.close();
  });

  it("a visitor's task page hydrates without a request for the task or a shift, and reads as it did without JavaScript", async () => {
    const bare = await contextFor(null, { javaScriptEnabled: false });
    const barePage = await bare.newPage();
    await barePage.goto(`${server.url}/task/${petTask}`);
    const bareText = await barePage.locator("main").innerText();
    await bare.close();

    const context = await contextFor(null);
    const page = await newPage(context);
    const { dataRequests, shift } = await load(page, `/task/${petTask}`);
    expect(dataRequests).toEqual([]);
    expect(shift).toBeLessThanOrEqual(0.05);
    // After hydration the date is in the reader's own zone; the rest reads as the server wrote it
    // (the map's attribution comes with its tile settings, which the browser asks for).
    await eventually(() => page.locator("time").innerText()).toBe("May 1, 2030 at 11:30 AM");
    let hydratedText = (await page.locator("main").innerText()).replace("May 1, 2030 at 11:30 AM", "");
    for (const attribution of await page.getByTestId("task-area-map").locator("p").allInnerTexts()) hydratedText = hydratedText.replace(attribution, "");
    // The map's lines whose text was taken out above leave their line breaks behind.
    // "Posted less than a minute ago" may turn "1 minute ago" between the two loads: the reader's clock.
    const lines = (text: string) => text.replace(/\n{2,}/g, "\n").replace(/Posted [^\n]* ago/, "Posted … ago");
    expect(lines(hydratedText)).toBe(lines(bareText.replace("May 1, 2030 at 2:30 PM EDT", "")));
    await expectAxeClean(page, "task page");
    // A visitor's Claim sends them to sign in.
    await page.getByRole("button", { name: "Claim Task" }).click();
    await page.waitForURL((url) => url.pathname === "/sign-in");
    page.assertClean([...OFFLINE]);
    await context.close();
  });

  it("a provider gets the same HTML, hydrates cleanly, then sees their take-home pay and can claim", async () => {
    const context = await contextFor(provider, { width: 1366 });
    const page = await newPage(context);
    const { dataRequests } = await load(page, "/job-board?category=pet");
    // At most the live connection's catch-up once it is subscribed (a change between the render and
    // the subscription would otherwise be missed; docs/decisions/025-live-task-status.md), never a
    // request the page needed to show its cards.
    expect(dataRequests.length).toBeLessThanOrEqual(1);
    const card = page.getByTestId("job-card").filter({ hasText: PET_TITLE });
    await eventually(() => card.getByText("You'll earn").isVisible()).toBe(true);
    await card.getByRole("button", { name: `Claim Task for ${PET_TITLE}` }).click();
    const confirm = page.getByRole("alertdialog", { name: "Claim this task?" });
    await eventually(() => confirm.isVisible()).toBe(true);
    await confirm.getByRole("button", { name: "Go back" }).click();
    await expectAxeClean(page, "provider's board");
    page.assertClean(OFFLINE);
    await context.close();
  });

  it("the poster gets the visitor's HTML of their own task, then their own view: the street and their actions", async () => {
    const context = await contextFor(poster);
    const page = await newPage(context);
    const { dataRequests } = await load(page, `/task/${petTask}`);
    // The visitor's view came with the HTML; the poster's own is asked for once they are known (and
    // again by the live connection's catch-up), which can be after the network first goes quiet.
    await eventually(() => page.getByText(STREET).isVisible()).toBe(true);
    await eventually(() => page.getByRole("button", { name: "Cancel Task" }).isVisible()).toBe(true);
    expect(dataRequests.length).toBeGreaterThanOrEqual(1);
    expect(new Set(dataRequests)).toEqual(new Set([`/api/tasks/${petTask}`]));
    expect(await page.getByRole("button", { name: "Claim Task" }).count()).toBe(0);
    page.assertClean(OFFLINE);
    await context.close();
  });
});

describe("user text in server-rendered pages", () => {
  it("a title that ends a script element stays text, on the board and the task page, with JavaScript on and off", async () => {
    // The data element holds the whole answer: had "</script>" ended it early, its JSON would not parse.
    const html = await (await fetch(`${server.url}/task/${hostileTask}`)).text();
    const data = /<script type="application\/json" id="page-data">([^<]*)<\/script>/.exec(html)?.[1] ?? "";
    const state = JSON.parse(data) as { queries: { data: { title: string; description: string } }[] };
    expect(state.queries[0]?.data).toMatchObject({ title: HOSTILE_TITLE, description: HOSTILE_DESCRIPTION });
    // The one script element more than a page without data: the data element.
    const scripts = (text: string) => text.match(/<script/g)?.length ?? 0;
    expect(scripts(html)).toBe(scripts(await (await fetch(`${server.url}/pricing`)).text()) + 1);

    for (const javaScriptEnabled of [false, true]) {
      const context = await contextFor(null, { javaScriptEnabled });
      const page = await newPage(context);
      const dialogs: string[] = [];
      page.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      for (const path of [`/task/${hostileTask}`, "/job-board?category=errands"]) {
        await page.goto(`${server.url}${path}`);
        if (javaScriptEnabled) await page.waitForLoadState("networkidle");
        expect(await page.getByText(HOSTILE_TITLE).first().isVisible(), path).toBe(true);
        const injected = await page.evaluate(() => ({
          xss: (window as unknown as { __xss?: unknown }).__xss,
          elements: Array.from(document.querySelectorAll('img[src="x"], script:not([src]):not(#page-data)')).map((el) => el.outerHTML),
        }));
        expect(injected, path).toEqual({ xss: undefined, elements: [] });
      }
      expect(dialogs).toEqual([]);
      page.assertClean([...OFFLINE]);
      await context.close();
    }
  });
});

describe("pages loading in the browser", () => {
  /** Follows an address the way the app's links do (history and popstate), without user input, so layout shifts count. */
  const navigateInApp = (page: Page, path: string) =>
    page.evaluate((to) => {
      history.pushState(null, "", to);
      dispatchEvent(new PopStateEvent("popstate"));
    }, path);

  /** Holds every answer to `pattern` until the returned function is called. */
  async function hold(page: Page, pattern: RegExp): Promise<() => void> {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(pattern, async (route) => {
      await released;
      await route.continue();
    });
    return release;
  }

  it("shows cards shaped like the board's while its first page loads, says so to screen readers, and puts the cards in their place", async () => {
    const context = await contextFor(null);
    const page = await newPage(context);
    await load(page, `/task/${petTask}`);
    const release = await hold(page, /\/api\/tasks\/open\?/);
    await navigateInApp(page, "/job-board?category=pet");
    const busy = page.locator('[aria-busy="true"]');
    await eventually(() => busy.isVisible()).toBe(true);
    expect(await page.getByRole("status").filter({ hasText: "Loading tasks..." }).count()).toBe(1);
    expect(await busy.locator(":scope > *").count()).toBe(6);
    await expectAxeClean(page, "board loading");
    const placeholder = await busy.locator(":scope > *").first().boundingBox();
    release();
    await eventually(() => cardTitles(page)).toEqual(await apiTitles("category=pet&pageSize=30"));
    expect(await busy.count()).toBe(0);
    // The card takes the placeholder's place, at about its size (titles and descriptions vary).
    const card = await page.getByTestId("job-card").first().boundingBox();
    expect(card?.x).toBe(placeholder?.x);
    expect(card?.y).toBe(placeholder?.y);
    expect(card?.width).toBe(placeholder?.width);
    expect(Math.abs((card?.height ?? 0) - (placeholder?.height ?? 0))).toBeLessThan((card?.height ?? 0) * 0.25);
    page.assertClean([...OFFLINE]);
    await context.close();
  });

  it("shows the task page's sections while the task loads, then the task in their place", async () => {
    const context = await contextFor(null, { width: 1366 });
    const page = await newPage(context);
    await load(page, "/job-board");
    const release = await hold(page, new RegExp(`/api/tasks/${petTask}$`));
    await navigateInApp(page, `/task/${petTask}`);
    const busy = page.locator('[aria-busy="true"]');
    await eventually(() => busy.isVisible()).toBe(true);
    expect(await page.getByRole("status").filter({ hasText: "Loading task..." }).count()).toBe(1);
    await expectAxeClean(page, "task loading");
    const placeholder = await busy.locator(".rounded-lg.border").first().boundingBox();
    release();
    await eventually(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(PET_TITLE);
    const card = await page.locator("main .rounded-lg.border").first().boundingBox();
    expect(card?.y).toBe(placeholder?.y);
    expect(card?.width).toBe(placeholder?.width);
    page.assertClean([...OFFLINE]);
    await context.close();
  });
});
