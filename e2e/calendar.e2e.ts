import { mkdirSync, readFileSync } from "node:fs";
import ical from "node-ical";
import { request, type BrowserContext, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { atBothWidths, DEMO, DESKTOP, formatViolations, newPage, PHONE, registerThroughApi, seriousAxeViolations, signIn, useServerAndBrowser } from "./harness.js";

// Time and turning up (docs/product.md, "Time and turning up"; issue 45): the provider sets their
// weekly hours and instant booking in settings and makes their private calendar address; a poster
// opens Request on the provider's profile, chooses one of the free times with the keyboard and
// books it at once, told what happens and the amount; the booked time is gone for a second
// poster; once paid, the provider's "On my way" reaches the poster's open task page. On another
// booked task the provider proposes one of their free times; the poster's open page shows it at
// once and accepts it; the provider's open page moves to it; the task's .ics invitation and the
// provider's calendar feed, read by a standard parser (node-ical), say the new time.
// Each journey walked once; each screen it reaches checked at a phone's width and a desktop's, axe
// clean, nothing scrolling sideways.

const e2e = useServerAndBrowser();
const SHOTS = "/tmp/calendar-shots";
const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
let contexts: BrowserContext[] = [];
let poster: Awaited<ReturnType<typeof newPage>>;
let secondPoster: Awaited<ReturnType<typeof newPage>>;
let provider: Awaited<ReturnType<typeof newPage>>;
let providerId = "";
let providerName = "";
/** The provider's private feed, made by the first journey. */
let feedPath = "";

/** The machine may be busy (two cores, several servers): give each UI change time to land. */
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000, interval: 100 });
const visible = (page: Page | Locator, text: string | RegExp) => () => page.getByText(text).first().isVisible();
/** The task's time in its "When" card: the span from start to end (the page's other dates show the start alone). */
const whenAt = (page: Page, startsAt: string) => page.locator(`time[datetime="${startsAt}"]`).filter({ hasText: "–" });
const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** The screen at a phone's width and a desktop's: axe clean, nothing sideways, a screenshot of each. */
async function clean(page: Page, shot: string) {
  await atBothWidths(page, async (width) => {
    expect(formatViolations(await seriousAxeViolations(page))).toBe("");
    expect(await noSidewaysScroll(page)).toBe(true);
    await page.screenshot({ path: `${SHOTS}/${shot}-${width}.png`, fullPage: true });
  });
}

async function pickAddress(page: Page, field: string, typed: string) {
  const input = page.getByRole("combobox", { name: field, exact: true });
  await input.fill(typed);
  const option = page.getByRole("listbox", { name: `${field} suggestions` }).getByRole("option").first();
  await option.waitFor({ state: "visible" });
  await option.click();
  await eventually(() => input.getAttribute("aria-expanded")).toBe("false");
}

/** Request on the provider's profile, the task's details, and the second step with the free times. */
async function requestUpToTimes(page: Page, title: string): Promise<Locator> {
  await page.goto(`${e2e.server.url}/users/${providerId}`);
  await page.getByRole("link", { name: `Request ${providerName}` }).click({ timeout: 15_000 });
  const dialog = page.getByRole("dialog", { name: "Post a Task" });
  await eventually(visible(dialog, `Requesting ${providerName}`)).toBe(true);
  await dialog.getByLabel("Task Title").fill(title);
  await dialog.getByLabel("Description").fill("Hang three shelves in the hall; the brackets and screws are here.");
  await dialog.getByRole("combobox", { name: "Category" }).click();
  await page.getByRole("option", { name: "Other Services" }).click();
  await dialog.getByRole("button", { name: "Next" }).click();
  await pickAddress(page, "Location", "Annapolis");
  await dialog.getByLabel("Budget ($)").fill("60");
  return dialog;
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const [posterContext, secondContext, providerContext] = [await e2e.browser.newContext(), await e2e.browser.newContext(), await e2e.browser.newContext()];
  contexts = [posterContext, secondContext, providerContext];
  poster = await newPage(posterContext);
  secondPoster = await newPage(secondContext);
  provider = await newPage(providerContext);
  const api = await request.newContext({ baseURL: e2e.server.url, extraHTTPHeaders: { origin: e2e.server.url } });
  await registerThroughApi(e2e.server, api, { email: "rita@example.test", firstName: "Rita", lastName: "Second", password: "amber falcon ribbon 9" });
  await api.dispose();
  await signIn(poster, e2e.server.url, DEMO.poster, DEMO.password, "/dashboard");
  await signIn(secondPoster, e2e.server.url, "rita@example.test", "amber falcon ribbon 9", "/dashboard");
  await signIn(provider, e2e.server.url, DEMO.provider, DEMO.password, "/dashboard");
  const me = await e2e.api<{ id: string; firstName: string; lastName: string }>(provider, "GET", "/api/auth/user");
  providerId = me.id;
  providerName = `${me.firstName} ${me.lastName.charAt(0)}.`;
  for (const page of [poster, secondPoster, provider]) page.problems.length = 0;
});
afterAll(async () => {
  for (const context of contexts) await context.close();
});

describe("calendar, each screen at 390 and 1366 px", () => {
  it("the provider sets hours; a poster books a free slot at once; it is gone for a second poster; on my way reaches the poster", async () => {
    for (const page of [poster, secondPoster, provider]) await page.setViewportSize(PHONE);

    // The provider's hours: every day 9 to 5, instant booking on.
    await provider.goto(`${e2e.server.url}/settings/calendar`);
    await eventually(() => provider.getByRole("button", { name: "Save calendar" }).isVisible()).toBe(true);
    for (const day of WEEKDAYS) {
      if ((await provider.getByRole("button", { name: `Remove ${day} window 1` }).count()) === 0) {
        await provider.getByRole("button", { name: `Add hours on ${day}` }).click();
      }
    }
    const instant = provider.getByRole("switch", { name: "Instant booking" });
    if ((await instant.getAttribute("aria-checked")) !== "true") await instant.click();
    await provider.getByRole("button", { name: "Save calendar" }).click();
    await eventually(visible(provider, "Calendar saved")).toBe(true);

    // The private calendar address: made, then reset after asking, which gives a new one.
    await provider.getByRole("button", { name: "Make my calendar address" }).click();
    const address = provider.getByLabel("Your private calendar address");
    await eventually(() => address.isVisible()).toBe(true);
    const made = await address.inputValue();
    await provider.getByRole("button", { name: "Reset address" }).click();
    const confirm = provider.getByRole("alertdialog");
    await eventually(() => confirm.isVisible()).toBe(true);
    await confirm.getByRole("button", { name: "Yes, reset it" }).click();
    await eventually(() => address.inputValue()).not.toBe(made);
    const feedUrl = new URL(await address.inputValue());
    expect(feedUrl.pathname).toMatch(/^\/api\/calendar\/feeds\/[^/]+\/errandly\.ics$/);
    const feed = await provider.request.get(`${e2e.server.url}${feedUrl.pathname}`);
    expect(feed.status()).toBe(200);
    expect(await feed.text()).toContain("BEGIN:VCALENDAR");
    feedPath = feedUrl.pathname;
    await clean(provider, "settings-calendar");

    // The poster's Request lists the free times; the keyboard chooses the first.
    const title = "Hang shelves";
    const dialog = await requestUpToTimes(poster, title);
    const times = dialog.getByRole("group", { name: `${providerName}'s free times` });
    await eventually(visible(dialog, "Choosing a time books it at once.")).toBe(true);
    const first = times.getByRole("radio").first();
    const startsAt = (await first.getAttribute("value")) ?? "";
    expect(startsAt).not.toBe("");
    await first.focus();
    await poster.keyboard.press("Space");
    await eventually(visible(dialog, /^Chosen: /)).toBe(true);
    await clean(poster, "request-times");
    await dialog.getByRole("button", { name: "Next" }).click();
    // $60 + the service fee ceil(8% of $60) + $0.50 = $65.30.
    await eventually(visible(dialog, "Booked at once: " + providerName + " is yours for this time. You then have 30 minutes to pay $65.30, held in escrow until the work is done.")).toBe(true);
    await clean(poster, "request-review");
    await dialog.getByRole("button", { name: "Post Task" }).click();
    await eventually(visible(poster, /is booked for .* Pay \$65\.30 within 30 minutes to confirm it\./)).toBe(true);
    await poster.getByRole("dialog", { name: "Add photos" }).getByRole("button", { name: "Skip photos" }).click();

    const mine = await e2e.api<{ id: string; title: string; status: string; totalAmount: number; scheduledDate: string }[]>(poster, "GET", "/api/tasks/my-tasks");
    const booked = mine.find((t) => t.title === title);
    expect(booked?.status).toBe("claimed");
    expect(Date.parse(booked?.scheduledDate ?? "")).toBe(Date.parse(startsAt));

    // The second poster, with the same task, no longer sees that time.
    const second = await requestUpToTimes(secondPoster, title);
    const secondTimes = second.getByRole("group", { name: `${providerName}'s free times` });
    await eventually(() => secondTimes.getByRole("radio").count()).toBeGreaterThan(0);
    expect(await secondTimes.locator(`input[value="${startsAt}"]`).count()).toBe(0);
    await secondPoster.keyboard.press("Escape");

    // Paid, the provider says they are on the way (without their position); the poster's open page hears it.
    if (!booked) throw new Error("the booked task is missing");
    await e2e.payByApi(poster, booked);
    await poster.goto(`${e2e.server.url}/task/${booked.id}`);
    await eventually(() => poster.getByRole("heading", { name: "When" }).isVisible()).toBe(true);
    await provider.goto(`${e2e.server.url}/task/${booked.id}`);
    await provider.getByRole("button", { name: "On my way" }).click({ timeout: 15_000 });
    const share = provider.getByRole("dialog", { name: "Share your position for an arrival time?" });
    await eventually(() => share.isVisible()).toBe(true);
    await clean(provider, "on-my-way-ask");
    await share.getByRole("button", { name: "Don't share" }).click();
    await eventually(visible(poster, `${providerName} is on the way`)).toBe(true);
    await clean(poster, "task-on-the-way");

    for (const page of [poster, secondPoster, provider]) page.assertClean();
  }, 240_000);

  it("a new time the provider proposes reaches the poster live; accepted, it moves the provider's page, the .ics and the feed", async () => {
    for (const page of [poster, provider]) await page.setViewportSize(DESKTOP);

    // A task booked at once through the routes the Request dialog uses, on the provider's first free hour, and paid.
    const { slots } = await e2e.api<{ slots: { startsAt: string }[] }>(poster, "GET", `/api/providers/${providerId}/slots?durationMinutes=60`);
    const bookedAt = slots[0]?.startsAt ?? "";
    const title = "Reschedule shelves";
    const booked = await e2e.api<{ id: string; totalAmount: number; status: string; durationMinutes: number }>(poster, "POST", "/api/tasks", {
      title,
      description: "Hang three shelves in the hall; the brackets and screws are here.",
      category: "other",
      budget: 60,
      location: "12 Harbor Rd",
      city: "Annapolis",
      state: "MD",
      lat: 38.9784,
      lon: -76.4922,
      estimatedHours: 1,
      request: { providerId, startsAt: bookedAt },
    });
    expect(booked.status).toBe("claimed");
    await e2e.payByApi(poster, booked);

    await poster.goto(`${e2e.server.url}/task/${booked.id}`);
    await provider.goto(`${e2e.server.url}/task/${booked.id}`);
    await eventually(() => whenAt(poster, bookedAt).isVisible()).toBe(true);

    // The provider proposes one of their own free times, with the keyboard.
    await provider.getByRole("button", { name: "Propose a new time" }).click({ timeout: 15_000 });
    const times = provider.getByRole("group", { name: "Your free times" });
    await eventually(() => times.getByRole("radio").count()).toBeGreaterThan(0);
    const choice = times.getByRole("radio").first();
    const newStart = (await choice.getAttribute("value")) ?? "";
    expect(newStart).not.toBe("");
    expect(newStart).not.toBe(bookedAt);
    await choice.focus();
    await provider.keyboard.press("Space");
    await clean(provider, "propose-time");
    await provider.getByRole("button", { name: "Send new time" }).click();
    await eventually(visible(provider, /^You proposed .* Waiting for .* to answer; until then the current time stays\.$/)).toBe(true);

    // The poster's open page shows the proposal without a reload, and accepts it.
    await eventually(visible(poster, new RegExp(`^${providerName.replace(".", "\\.")} proposes a new time: `))).toBe(true);
    await clean(poster, "time-proposed");
    await poster.getByRole("button", { name: "Accept new time" }).click();
    await eventually(visible(poster, "New time accepted")).toBe(true);
    await eventually(() => whenAt(poster, newStart).isVisible()).toBe(true);

    // The provider's open page moves to the new time, the proposal gone.
    await eventually(() => whenAt(provider, newStart).isVisible()).toBe(true);
    await eventually(visible(provider, /^You proposed /)).toBe(false);
    await clean(provider, "time-accepted");

    // The invitation the poster downloads from the task page opens in node-ical at the new time.
    const end = new Date(Date.parse(newStart) + booked.durationMinutes * 60_000).toISOString();
    const [download] = await Promise.all([poster.waitForEvent("download"), poster.getByRole("link", { name: "Add to my calendar (.ics)" }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.ics$/);
    // The browser runs apart from the test: the file is copied here to be read.
    const saved = `${SHOTS}/invitation.ics`;
    await download.saveAs(saved);
    const invitation = Object.values(ical.sync.parseICS(readFileSync(saved, "utf8"))).filter((c) => c?.type === "VEVENT");
    expect(invitation).toHaveLength(1);
    const [event] = invitation;
    expect(event?.type === "VEVENT" && [event.summary, event.start.toISOString(), event.end?.toISOString()]).toEqual([title, newStart, end]);

    // The provider's calendar feed says the same.
    const feed = await provider.request.get(`${e2e.server.url}${feedPath}`);
    expect(feed.status()).toBe(200);
    const inFeed = Object.values(ical.sync.parseICS(await feed.text())).filter((c) => c?.type === "VEVENT" && c.summary === title);
    expect(inFeed.map((c) => c?.type === "VEVENT" && [c.start.toISOString(), c.end?.toISOString()])).toEqual([[newStart, end]]);

    for (const page of [poster, provider]) page.assertClean();
  }, 240_000);
});
