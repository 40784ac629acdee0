import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { parcelPickup } from "../test/fixtures/task-bodies.js";
import { formatViolations, newPerson, seriousAxeViolations, useSharedServer } from "./harness.js";

// Poster and provider chat live on a claimed task (each in their own browser context), then the
// task is paid in the sandbox, started and completed through the API, and both rate each other.

const e2e = useSharedServer();

describe("task chat and reviews", () => {
  it("delivers messages live both ways, then both sides review each other", async () => {
    // A poster and a provider of this journey's own on the run's shared server, and the poster's task.
    const poster = await newPerson(e2e, "poster", "/");
    const provider = await newPerson(e2e, "provider", "/");
    const task = await e2e.api<{ id: string; totalAmount: number }>(poster, "POST", "/api/tasks", parcelPickup("Groceries from the corner shop", { budget: 40 }));
    await e2e.api(provider, "PATCH", `/api/tasks/${task.id}/claim`);

    await poster.goto(`${e2e.server.url}/task/${task.id}`);
    await provider.goto(`${e2e.server.url}/task/${task.id}`);
    for (const page of [poster, provider]) {
      await expect.poll(() => page.getByRole("heading", { name: "Task Messages" }).isVisible(), { timeout: 15_000 }).toBe(true);
      await expect.poll(() => page.getByText("Connected", { exact: true }).isVisible(), { timeout: 15_000 }).toBe(true);
    }

    const posterBox = poster.getByRole("textbox", { name: "Message" });
    await posterBox.fill("Hi! The groceries list is on the fridge.");
    await posterBox.press("Enter");
    const log = (page: Page) => page.getByRole("log", { name: "Messages" });
    await expect.poll(() => log(provider).getByText("Hi! The groceries list is on the fridge.").isVisible(), { timeout: 10_000 }).toBe(true);
    // Sent once: the POST answer and the socket echo are one bubble (polled: the provider's copy may
    // arrive before the poster's own POST answer).
    await expect.poll(() => log(poster).getByText("Hi! The groceries list is on the fridge.").count()).toBe(1);

    const providerBox = provider.getByRole("textbox", { name: "Message" });
    await providerBox.fill("On my way");
    await providerBox.press("Shift+Enter");
    await providerBox.pressSequentially("ETA 20 minutes");
    await providerBox.press("Enter");
    await expect.poll(() => log(poster).getByText(/On my way\s+ETA 20 minutes/).isVisible(), { timeout: 10_000 }).toBe(true);

    const violations = await seriousAxeViolations(poster);
    expect(violations, formatViolations(violations)).toEqual([]);
    await provider.evaluate(() => localStorage.setItem("theme", "dark"));
    await provider.reload();
    await expect.poll(() => log(provider).getByText(/ETA 20 minutes/).isVisible(), { timeout: 15_000 }).toBe(true);
    const dark = await seriousAxeViolations(provider);
    expect(dark, formatViolations(dark)).toEqual([]);

    // The poster's bell counts up live while they stay on the page (no reload, no polling).
    const bell = poster.getByRole("button", { name: /^Notifications, \d+ unread$/ });
    const unread = async () => Number((await bell.getAttribute("aria-label"))?.match(/(\d+) unread/)?.[1] ?? -1);
    await expect.poll(unread, { timeout: 15_000 }).toBeGreaterThanOrEqual(0);
    const before = await unread();

    // Pay (sandbox card), start and complete through the API, then review in the UI.
    await e2e.payByApi(poster, task);
    await e2e.api(provider, "PATCH", `/api/tasks/${task.id}/start`);
    await e2e.api(provider, "PATCH", `/api/tasks/${task.id}/complete`);

    await expect.poll(unread, { timeout: 15_000 }).toBeGreaterThan(before);
    await bell.click();
    await expect.poll(() => poster.getByText("Your task is completed").isVisible(), { timeout: 10_000 }).toBe(true);
    const popoverViolations = await seriousAxeViolations(poster);
    expect(popoverViolations, formatViolations(popoverViolations)).toEqual([]);
    // Opening the bell marked them read: the badge is gone without pressing "Mark all as read".
    await expect.poll(unread, { timeout: 10_000 }).toBe(0);
    await poster.keyboard.press("Escape");

    const rate = async (page: Page, button: "Rate Provider" | "Rate Customer", stars: string, comment: string) => {
      await page.reload();
      await expect.poll(() => page.getByRole("button", { name: button }).isVisible(), { timeout: 15_000 }).toBe(true);
      await page.getByRole("button", { name: button }).click();
      const dialog = page.getByRole("dialog", { name: button });
      await dialog.getByRole("button", { name: "Submit Review" }).click();
      await expect.poll(() => page.getByText("Please select a rating", { exact: true }).isVisible()).toBe(true);
      await dialog.getByRole("radio", { name: stars }).click();
      await dialog.getByLabel("Comment (optional)").fill(comment);
      await dialog.getByRole("button", { name: "Submit Review" }).click();
      await expect.poll(() => page.getByText("Review submitted successfully!", { exact: true }).isVisible()).toBe(true);
    };
    await rate(poster, "Rate Provider", "5 stars", "Fast and friendly");
    // Blind until both have reviewed: the provider does not see the poster's review yet.
    await provider.reload();
    await expect.poll(() => provider.getByRole("button", { name: "Rate Customer" }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await provider.getByText("Fast and friendly").count()).toBe(0);
    await rate(provider, "Rate Customer", "4 stars", "Clear instructions");

    await poster.reload();
    for (const page of [poster, provider]) {
      await expect.poll(() => page.getByText("Fast and friendly").isVisible(), { timeout: 15_000 }).toBe(true);
      await expect.poll(() => page.getByText("Clear instructions").isVisible(), { timeout: 15_000 }).toBe(true);
    }
    expect(await poster.getByRole("button", { name: "Rate Provider" }).count()).toBe(0);

    // E-mail preferences: a switch per kind, saved at once.
    await poster.goto(`${e2e.server.url}/settings/notifications`);
    const chatSwitch = poster.getByRole("switch", { name: "A new chat message while I am away (by e-mail)" });
    await expect.poll(() => chatSwitch.getAttribute("aria-checked"), { timeout: 10_000 }).toBe("true");
    await chatSwitch.click();
    await expect.poll(() => chatSwitch.getAttribute("aria-checked")).toBe("false");
    await poster.reload();
    await expect.poll(() => chatSwitch.getAttribute("aria-checked"), { timeout: 10_000 }).toBe("false");
    const settingsViolations = await seriousAxeViolations(poster);
    expect(settingsViolations, formatViolations(settingsViolations)).toEqual([]);

    // The sign-in page asks for the current user before signing in: that 401 is expected.
    poster.assertClean([/401 \(Unauthorized\)/]);
    provider.assertClean([/401 \(Unauthorized\)/]);
    await poster.context().close();
    await provider.context().close();
  });
});
