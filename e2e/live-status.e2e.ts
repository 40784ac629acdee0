import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO, formatViolations, newPage, seriousAxeViolations, signIn, useServerAndBrowser } from "./harness.js";

// The live task status (docs/product.md, Live updates), in three browsers: the poster pays and the
// provider's open task page turns from "Waiting for Payment" to an enabled "Start Task" within a
// second, without a reload; a task claimed by one provider disappears from another provider's
// job board without a reload. A page whose socket opens late catches up on what it missed.

const e2e = useServerAndBrowser();
let database: pg.Client;

beforeAll(async () => {
  database = new pg.Client({ connectionString: e2e.server.databaseUrl });
  await database.connect();
});
afterAll(async () => {
  await database?.end();
});

describe("live task status", () => {
  it("updates the provider's task page on payment and the other provider's job board on a claim", async () => {
    const poster = await newPage(await e2e.browser.newContext());
    const provider = await newPage(await e2e.browser.newContext());
    const other = await newPage(await e2e.browser.newContext());
    await signIn(poster, e2e.server.url, DEMO.poster, DEMO.password, "/");
    await signIn(provider, e2e.server.url, DEMO.provider, DEMO.password, "/");

    // Another provider: a new account made a provider in the database (the application journey is
    // providers.e2e.ts); the job board is all this test needs of them.
    const email = `other-provider-${Date.now()}@example.test`;
    await e2e.api(other, "POST", "/api/auth/register", { email, firstName: "Olive", lastName: "Other", password: "violet canyon lantern 2026" });
    await database.query("update users set role = 'provider' where email = $1", [email]);
    await signIn(other, e2e.server.url, email, "violet canyon lantern 2026", "/job-board");

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
