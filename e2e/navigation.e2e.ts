import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { DEMO, formatViolations, newPage, seriousAxeViolations, signIn, useServerAndBrowser } from "./harness.js";

// Layout and navigation (docs/product.md, Web app): "Task not found" is a page with a way onward,
// the task page opens at its top, Back returns to where the user was, the bell's badge clears when
// it is opened, admin pages share one sub-navigation and width, and a provider has "My Tasks".

const e2e = useServerAndBrowser();

async function expectAxeClean(page: Page) {
  const violations = await seriousAxeViolations(page);
  expect(violations, formatViolations(violations)).toEqual([]);
}

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));
const EXPECTED = [/401 \(Unauthorized\)/, /404 \(Not Found\)/, /400 \(Bad Request\)/];

describe("layout and navigation", () => {
  it("task not found, top of the task page, Back, the bell, and a provider's own tasks", { timeout: 300_000 }, async () => {
    const poster = await newPage(await e2e.browser.newContext({ viewport: { width: 390, height: 800 } }));
    const provider = await newPage(await e2e.browser.newContext({ viewport: { width: 1366, height: 800 } }));
    await signIn(poster, e2e.server.url, DEMO.poster, DEMO.password, "/");
    await signIn(provider, e2e.server.url, DEMO.provider, DEMO.password, "/");

    // A missing task and an address that is not a task id read the same, with links onward.
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-task"]) {
      await poster.goto(`${e2e.server.url}/task/${id}`);
      await expect.poll(() => poster.getByRole("heading", { name: "Task not found" }).isVisible(), { timeout: 15_000 }).toBe(true);
      expect(await poster.getByRole("link", { name: "Browse the job board" }).getAttribute("href")).toBe("/job-board");
      expect(await poster.getByRole("link", { name: "Go to your dashboard" }).getAttribute("href")).toBe("/dashboard");
      expect(await poster.getByText(/\b40[04]:/).count()).toBe(0);
    }
    await expectAxeClean(poster);

    // A claimed task with a long chat: the page still opens at its top.
    const task = await e2e.api<{ id: string; title: string }>(poster, "POST", "/api/tasks", {
      title: `Navigation check ${Date.now().toString(36)}`,
      description: "Water the plants",
      category: "errands",
      budget: 30,
      location: "1 Main St",
      city: "Annapolis",
      state: "MD",
    });
    await e2e.api(provider, "PATCH", `/api/tasks/${task.id}/claim`);
    for (let n = 1; n <= 12; n += 1) await e2e.api(provider, "POST", "/api/messages", { taskId: task.id, content: `Message number ${n}` });
    await poster.goto(`${e2e.server.url}/task/${task.id}`);
    await expect.poll(() => poster.getByText("Message number 12", { exact: true }).isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => poster.getByText("Connected", { exact: true }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await scrollY(poster)).toBe(0);

    // The claim notified the poster: opening the bell clears the badge, without "Mark all as read".
    const bell = poster.getByRole("button", { name: /^Notifications, \d+ unread$/ });
    await expect.poll(async () => (await bell.getAttribute("aria-label")) ?? "", { timeout: 10_000 }).not.toBe("Notifications, 0 unread");
    await bell.click();
    await expect.poll(async () => bell.getAttribute("aria-label"), { timeout: 5_000 }).toBe("Notifications, 0 unread");
    // The list loads at the bell's first press (decision 041): checked once it is there.
    await poster.getByRole("link", { name: "Notification settings" }).waitFor();
    await expectAxeClean(poster);
    await poster.keyboard.press("Escape");
    await expect.poll(() => bell.evaluate((el) => el === document.activeElement), { timeout: 5_000 }).toBe(true);

    // Back returns to the scrolled job board, from the browser and from the page's own Back button.
    await poster.goto(`${e2e.server.url}/job-board`);
    await expect.poll(() => poster.getByTestId("job-card").count(), { timeout: 15_000 }).toBeGreaterThan(2);
    // The last card, scrolled to as a user would: where the page stands then is where Back returns.
    const details = poster.getByRole("link", { name: /^View Details/ }).last();
    await details.scrollIntoViewIfNeeded();
    const target = await scrollY(poster);
    expect(target).toBeGreaterThan(100);
    await details.click();
    await expect.poll(() => poster.url().includes("/task/"), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => scrollY(poster), { timeout: 10_000 }).toBe(0);
    await poster.goBack();
    await expect.poll(() => scrollY(poster), { timeout: 5_000 }).toBe(target);
    await details.click();
    await expect.poll(() => poster.getByRole("link", { name: "Back" }).isVisible(), { timeout: 15_000 }).toBe(true);
    await poster.getByRole("link", { name: "Back" }).click();
    await expect.poll(() => new URL(poster.url()).pathname, { timeout: 5_000 }).toBe("/job-board");
    await expect.poll(() => scrollY(poster), { timeout: 5_000 }).toBe(target);

    // A provider who posts tasks sees and manages them under "My Tasks".
    await provider.goto(`${e2e.server.url}/dashboard`);
    const myTasks = provider.getByRole("button", { name: "My Tasks" });
    await expect.poll(() => myTasks.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await myTasks.isEnabled()).toBe(true);
    await myTasks.click();
    await expect.poll(() => provider.getByRole("heading", { name: "Tasks I Posted" }).isVisible()).toBe(true);
    await expectAxeClean(provider);

    for (const page of [poster, provider]) page.assertClean(EXPECTED);
  });

  it("admin pages share one sub-navigation at one width", { timeout: 120_000 }, async () => {
    const admin = await newPage(await e2e.browser.newContext({ viewport: { width: 1366, height: 800 } }));
    await signIn(admin, e2e.server.url, DEMO.admin, DEMO.password, "/");
    const boxes: { x: number; width: number }[] = [];
    for (const path of ["/admin", "/admin/inbox", "/admin/finance", "/admin/audit", "/admin/outbox"]) {
      await admin.goto(`${e2e.server.url}${path}`);
      const nav = admin.getByRole("navigation", { name: "Admin" });
      await expect.poll(() => nav.isVisible(), { timeout: 15_000 }).toBe(true);
      expect(await nav.locator('a[aria-current="page"]').getAttribute("href")).toBe(path);
      const box = await nav.boundingBox();
      if (!box) throw new Error(`no admin navigation on ${path}`);
      boxes.push({ x: Math.round(box.x), width: Math.round(box.width) });
    }
    expect(new Set(boxes.map((b) => JSON.stringify(b))).size, JSON.stringify(boxes)).toBe(1);
    await expectAxeClean(admin);
    admin.assertClean(EXPECTED);
  });
});
