import { describe, expect, it } from "vitest";
import { formatViolations, newPerson, seriousAxeViolations, useSharedServer } from "./harness.js";

// The live task status (docs/product.md, Live updates), in three browsers: the poster pays and the
// provider's open task page turns from "Waiting for Payment" to an enabled "Start Task" within a
// second, without a reload; a task claimed by one provider disappears from another provider's
// job board without a reload. A page whose socket opens late catches up on what it missed.

const e2e = useSharedServer();

describe("live task status", () => {
  it("updates the provider's task page on payment and the other provider's job board on a claim", async () => {
    // People of this journey's own on the run's shared server: a poster, the provider who claims,
    // and another provider watching the job board.
    const poster = await newPerson(e2e, "poster", "/");
    const provider = await newPerson(e2e, "provider", "/");
    const other = await newPerson(e2e, "provider", "/job-board");

    const title = `Live status check ${Date.now().toString(36)}`;
    const task = await e2e.api<{ id: string; totalAmount: number }>(poster, "POST", "/api/tasks", {
      title,
      description: "Carry two boxes to the car",
      category: "errands",
      budget: 40,
      location: "1 Main St",
      city: "Annapolis",
      state: "MD",
    });

    // The new task joins the other provider's board without a reload; the claim takes it off.
    const card = () => other.getByTestId("job-card").filter({ hasText: title });
    await expect.poll(() => card().count(), { timeout: 10_000 }).toBe(1);
    // The provider's page loads before its socket opens (as on a slow phone): the socket is held
    // until the claim is done, so the page must catch up on what it missed once subscribed.
    let openSocket = () => {};
    const socketHeld = new Promise<void>((resolve) => (openSocket = resolve));
    await provider.routeWebSocket(/\/ws$/, async (socket) => {
      await socketHeld;
      socket.connectToServer();
    });
    await provider.goto(`${e2e.server.url}/task/${task.id}`);
    await expect.poll(() => provider.getByRole("heading", { name: title }).isVisible(), { timeout: 15_000 }).toBe(true);
    await e2e.api(provider, "PATCH", `/api/tasks/${task.id}/claim`);
    await expect.poll(() => card().count(), { timeout: 5_000 }).toBe(0);
    openSocket();

    // The claim reached the provider's own page too (claimed through the API, not this page).
    await expect.poll(() => provider.getByText("Waiting for Payment", { exact: true }).isVisible(), { timeout: 5_000 }).toBe(true);
    const start = provider.getByRole("button", { name: "Start Task" });
    expect(await start.isEnabled()).toBe(false);

    await e2e.payByApi(poster, task);
    // Within a second of the payment's answer, without a reload.
    await expect.poll(() => start.isEnabled(), { timeout: 1_000, interval: 50 }).toBe(true);
    expect(await provider.getByText("Waiting for Payment", { exact: true }).count()).toBe(0);

    const violations = await seriousAxeViolations(provider);
    expect(violations, formatViolations(violations)).toEqual([]);
    // The sign-in pages ask who is signed in before anyone is: that 401 is expected.
    for (const page of [poster, provider, other]) page.assertClean([/401 \(Unauthorized\)/]);
  });
});
