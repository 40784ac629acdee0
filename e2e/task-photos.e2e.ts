import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { atBothWidths, DEMO, formatViolations, connectBrowser, newPage, seriousAxeViolations, signIn, startServer, type RunningServer } from "./harness.js";

// Issue 15, task photos (docs/product.md#task-photos): a poster posts a task with two photos in the
// wizard, sees them in the task page's gallery, moves between them with the keyboard and removes
// one; a provider sees the first photo on the job-board card.

let server: RunningServer;
let browser: Browser;

const TITLE = `Carry a couch downstairs ${Date.now().toString(36)}`;
const COUCH_ALT = "The red couch by the front door";
const SIGNED_OUT = [/401 \(Unauthorized\)/];

beforeAll(async () => {
  server = await startServer();
  browser = await connectBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The machine may be busy (two cores, several servers): give each UI change time to land. */
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000, interval: 100 });

async function expectAxeClean(page: Page, label: string) {
  const violations = await seriousAxeViolations(page);
  expect(violations, `${label}: ${formatViolations(violations)}`).toEqual([]);
}

/** A photo-like picture: a 1600×1200 JPEG and a 900×1200 PNG, made here so the test needs no files. */
function picture(width: number, height: number, colour: string) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="#e8e2d6"/>
    <rect x="${width * 0.15}" y="${height * 0.45}" width="${width * 0.7}" height="${height * 0.3}" rx="40" fill="${colour}"/>
    <rect x="${width * 0.15}" y="${height * 0.3}" width="${width * 0.7}" height="${height * 0.2}" rx="30" fill="${colour}" opacity="0.8"/>
  </svg>`;
  return sharp(Buffer.from(svg));
}

/** Where the page's image element actually loaded an image (not a broken one). */
const loaded = (page: Page, testIdOrSelector: string) =>
  page.locator(testIdOrSelector).first().evaluate((img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0);

async function screenshots(page: Page, name: string) {
  await atBothWidths(page, async (width) => {
    // Nothing scrolls sideways at either width.
    await eventually(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: `/tmp/task-photos-${name}-${width}.png`, fullPage: true });
  });
}

describe("task photos", () => {
  let taskId = "";

  it("posts a task with two photos in the wizard, shows them in a keyboard gallery, and removes one", async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await newPage(context);
    await signIn(page, server.url, DEMO.poster, DEMO.password, "/dashboard");
    await page.getByRole("button", { name: "Post a Task" }).first().click();
    const wizard = page.getByRole("dialog", { name: "Post a Task" });
    await wizard.getByLabel("Task Title").fill(TITLE);
    await wizard.getByLabel("Description").fill("A three-seat couch from the second floor to the truck outside.");
    await wizard.getByRole("combobox", { name: "Category" }).click();
    await page.getByRole("option", { name: "Moving & Transport" }).click();
    await wizard.getByRole("button", { name: "Next" }).click();
    await wizard.getByRole("combobox", { name: "Location", exact: true }).fill("58 West St, Annapolis, MD");
    await wizard.getByLabel("Budget ($)").fill("60");
    await wizard.getByRole("button", { name: "Next" }).click();
    await wizard.getByText("Step 3 of 3: Review").waitFor();
    const created = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/tasks" && r.request().method() === "POST");
    await wizard.getByRole("button", { name: "Post Task" }).click();
    taskId = ((await (await created).json()) as { id: string }).id;

    // The wizard's photo step: the same calls as the task page, on the task just posted.
    const step = page.getByRole("dialog", { name: "Add photos" });
    await step.waitFor();
    await step.getByLabel("Photo", { exact: true }).setInputFiles({
      name: "couch.jpg",
      mimeType: "image/jpeg",
      buffer: await picture(1600, 1200, "#b03a2e").jpeg().toBuffer(),
    });
    await step.getByLabel("Short description (optional)").fill(COUCH_ALT);
    await step.getByRole("button", { name: "Add photo" }).click();
    await eventually(() => step.getByText("1 of 5 photos").isVisible()).toBe(true);
    await step.getByLabel("Photo", { exact: true }).setInputFiles({
      name: "stairs.png",
      mimeType: "image/png",
      buffer: await picture(900, 1200, "#2e6fb0").png().toBuffer(),
    });
    await step.getByRole("button", { name: "Add photo" }).click();
    await eventually(() => step.getByText("2 of 5 photos").isVisible()).toBe(true);
    await eventually(() => step.getByRole("img", { name: COUCH_ALT }).isVisible()).toBe(true);
    await expectAxeClean(page, "wizard photo step");
    await page.screenshot({ path: "/tmp/task-photos-wizard-1366.png" });
    await page.setViewportSize({ width: 390, height: 844 });
    await eventually(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: "/tmp/task-photos-wizard-390.png" });
    await page.setViewportSize({ width: 1366, height: 900 });
    await step.getByRole("button", { name: "Done" }).click();
    await eventually(() => step.isVisible()).toBe(false);

    await page.goto(`${server.url}/task/${taskId}`);
    const gallery = page.getByTestId("task-photo-gallery");
    await gallery.waitFor();
    const big = gallery.getByRole("button", { name: /View larger/ });
    await eventually(() => big.getByRole("img").getAttribute("alt")).toBe(COUCH_ALT);
    await eventually(() => loaded(page, '[data-testid="task-photo-gallery"] button img')).toBe(true);
    await expectAxeClean(page, "task page with gallery");
    await screenshots(page, "task-page");

    // Arrow keys move between photos; focus follows on the thumbnails and shows.
    await gallery.getByRole("button", { name: `Show photo 1 of 2: ${COUCH_ALT}` }).focus();
    await page.keyboard.press("ArrowRight");
    const second = `Photo 2 of ${TITLE}`;
    await eventually(() => big.getByRole("img").getAttribute("alt")).toBe(second);
    await eventually(() => page.evaluate(() => document.activeElement?.getAttribute("alt") ?? document.activeElement?.querySelector("img")?.alt)).toBe(
      `Show photo 2 of 2: ${second}`,
    );
    expect(await gallery.getByText("Photo 2 of 2", { exact: true }).isVisible()).toBe(true);
    await page.keyboard.press("ArrowRight");
    await eventually(() => big.getByRole("img").getAttribute("alt")).toBe(COUCH_ALT);

    // The larger view, with the same keys.
    await big.focus();
    await page.keyboard.press("Enter");
    const larger = page.getByRole("dialog", { name: COUCH_ALT });
    await larger.waitFor();
    await page.keyboard.press("ArrowLeft");
    await eventually(() => page.getByRole("dialog", { name: second }).isVisible()).toBe(true);
    await expectAxeClean(page, "larger view");
    // Previous and Next stay on screen under the image.
    const next = page.getByRole("dialog").getByRole("button", { name: "Next" });
    expect(await next.evaluate((el) => el.getBoundingClientRect().bottom <= window.innerHeight)).toBe(true);
    await page.screenshot({ path: "/tmp/task-photos-larger-1366.png" });
    await page.keyboard.press("Escape");
    await eventually(() => page.getByRole("dialog").count()).toBe(0);

    // Removing one: the gallery and the poster's list follow. The list opens from its button.
    const managerButton = page.getByRole("button", { name: "Add or remove photos" });
    expect(await managerButton.getAttribute("aria-expanded")).toBe("false");
    await managerButton.click();
    const manager = page.getByTestId("task-photo-manager");
    await expectAxeClean(page, "task page with the photo manager open");
    await manager.getByRole("button", { name: "Remove photo 2" }).click();
    await eventually(() => manager.getByText("1 of 5 photos").isVisible()).toBe(true);
    await eventually(() => gallery.getByRole("button", { name: /^Show photo/ }).count()).toBe(0);
    await eventually(() => big.getByRole("img").getAttribute("alt")).toBe(COUCH_ALT);
    // The sign-in page asked who is signed in before signing in.
    page.assertClean(SIGNED_OUT);
    await context.close();
  });

  it("shows a provider the first photo on the job-board card", async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await newPage(context);
    await signIn(page, server.url, DEMO.provider, DEMO.password, "/job-board");
    await page.getByRole("searchbox", { name: "Search tasks" }).fill(TITLE);
    const card = page.getByTestId("job-card").filter({ hasText: TITLE });
    await card.waitFor();
    const photo = card.getByTestId("job-card-photo");
    expect(await photo.getAttribute("alt")).toBe(COUCH_ALT);
    expect(await photo.getAttribute("loading")).toBe("lazy");
    expect(await photo.getAttribute("src")).toMatch(/^\/api\/task-photos\/[0-9a-f-]{36}\/small$/);
    await eventually(() => loaded(page, '[data-testid="job-card-photo"]')).toBe(true);
    // Cards without photos have none.
    await page.getByRole("searchbox", { name: "Search tasks" }).fill("");
    await eventually(() => page.getByTestId("job-card").count()).toBeGreaterThan(2);
    await eventually(() => page.getByTestId("job-card-photo").count()).toBeGreaterThan(0);
    await expectAxeClean(page, "job board with a photo");
    await screenshots(page, "job-board");
    page.assertClean(SIGNED_OUT);
    await context.close();
  });
});
