import { describe, expect, it } from "vitest";
import { DEMO, formatViolations, newPage, seriousAxeViolations, signIn, useServerAndBrowser } from "./harness.js";

// The public site's forms and links. Every route's one h1, title and axe sweep in both themes is
// every-route-a11y.e2e.ts.

const e2e = useServerAndBrowser();


describe("public site", () => {
  it("landing: Browse Tasks opens the job board filtered, Post a Task sends a visitor to sign in and opens the dialog when signed in", async () => {
    const context = await e2e.browser.newContext();
    const page = await newPage(context);
    await page.goto(`${e2e.server.url}/`);
    await page.getByRole("link", { name: "Browse Tasks: Pet Care" }).click();
    await page.waitForURL(`${e2e.server.url}/job-board?category=pet`);

    await page.goto(`${e2e.server.url}/`);
    // A visitor may fill in the wizard first; posting asks them to sign in and keeps the draft
    // (forms-felix.e2e.ts follows that through).
    await page.getByRole("button", { name: "Post a Task" }).click();
    await expect.poll(() => page.getByRole("dialog").isVisible()).toBe(true);

    await page.goto(`${e2e.server.url}/`);
    await page.getByRole("button", { name: "Become a Provider" }).click();
    await page.waitForURL(/\/sign-in\?returnTo=%2Fbecome-provider$/);

    await signIn(page, e2e.server.url, DEMO.poster, DEMO.password, "/");
    await page.getByRole("button", { name: "Post a Task" }).click();
    await expect.poll(() => page.getByRole("dialog").isVisible()).toBe(true);
    page.assertClean();
    await context.close();
  });

  it("contact: a bad e-mail is refused under the field, a valid message is sent and the form resets", async () => {
    const context = await e2e.browser.newContext();
    const page = await newPage(context);
    await page.goto(`${e2e.server.url}/contact`);
    await page.getByLabel("Name").fill("Casey Visitor");
    await page.getByLabel("Email").fill("casey-at-example");
    await page.getByLabel("Subject").fill("Service area");
    await page.getByLabel("Message").fill("Do you cover Baltimore?");
    await page.getByRole("button", { name: "Send Message" }).click();
    const email = page.getByLabel("Email");
    await expect.poll(() => email.getAttribute("aria-invalid")).toBe("true");
    const describedBy = (await email.getAttribute("aria-describedby")) ?? "";
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe("Invalid email address");
    await expect.poll(() => page.getByText("Message Sent!", { exact: true }).count()).toBe(0);

    await email.fill("casey@example.test");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect.poll(() => page.getByText("Message Sent!", { exact: true }).isVisible()).toBe(true);
    expect(await page.getByText("We've received your message and will get back to you soon.", { exact: true }).isVisible()).toBe(true);
    for (const label of ["Name", "Email", "Subject", "Message"]) expect(await page.getByLabel(label).inputValue()).toBe("");
    page.assertClean();
    await context.close();
  });

  it("book appointment: a short name is refused, a valid request is submitted and the form resets", async () => {
    // The visitor is on the office's clock, so 10:00 is within opening hours (docs/product.md#dates-and-hours).
    const context = await e2e.browser.newContext({ timezoneId: "America/New_York" });
    const page = await newPage(context);
    await page.goto(`${e2e.server.url}/book-appointment`);
    const date = page.getByLabel("Appointment Date & Time");
    const min = (await date.getAttribute("min")) ?? "";
    expect(min).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    // Two days ahead at 10:00: always after the minimum, whatever the time zone.
    const inTwoDays = new Date(Date.now() + 2 * 86_400_000);
    const pad = (n: number) => String(n).padStart(2, "0");
    const when = `${inTwoDays.getFullYear()}-${pad(inTwoDays.getMonth() + 1)}-${pad(inTwoDays.getDate())}T10:00`;

    await page.getByLabel("Full Name").fill("J");
    await page.getByLabel("Email").fill("jamie@example.test");
    await page.getByRole("textbox", { name: "Phone", exact: true }).fill("410-555-0199");
    await date.fill(when);
    await page.getByRole("radio", { name: "Phone Call" }).click();
    await page.getByLabel("Reason for Visit").fill("I want help setting up my provider profile.");
    await page.getByRole("button", { name: "Submit Appointment Request" }).click();
    await expect.poll(() => page.getByText("Name must be at least 2 characters").isVisible()).toBe(true);

    await page.getByLabel("Full Name").fill("Jamie Rivera");
    await page.getByRole("button", { name: "Submit Appointment Request" }).click();
    await expect.poll(() => page.getByText("Appointment Request Submitted!", { exact: true }).isVisible()).toBe(true);
    expect(await page.getByLabel("Full Name").inputValue()).toBe("");
    expect(await date.inputValue()).toBe("");
    expect(await page.getByRole("radio", { name: "Office Visit" }).getAttribute("aria-checked")).toBe("true");
    page.assertClean();
    await context.close();
  });

  it("admin inbox: visitors go to sign in, non-admins are refused, admins read messages and requests", async () => {
    const context = await e2e.browser.newContext();
    const page = await newPage(context);
    await page.goto(`${e2e.server.url}/admin/inbox`);
    await page.waitForURL(/\/sign-in\?returnTo=%2Fadmin%2Finbox$/);
    // Sent through the API from the page, so the request carries the site's own origin.
    const subject = `Inbox check ${Date.now()}`;
    const status = await page.evaluate(
      async (body) => (await fetch("/api/contact", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })).status,
      { name: "Robin Reader", email: "robin@example.test", subject, message: "Is the inbox working?" },
    );
    expect(status).toBe(201);
    const booked = await page.evaluate(
      async (body) => (await fetch("/api/appointments", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })).status,
      {
        name: "Quinn Planner",
        email: "quinn@example.test",
        phone: "410-555-0123",
        // 15:00 UTC is 10 or 11 AM in Annapolis: within opening hours.
        appointmentDate: new Date(new Date(Date.now() + 3 * 86_400_000).setUTCHours(15, 0, 0, 0)).toISOString(),
        reason: "Setting up a business account.",
        preferContact: "text",
      },
    );
    expect(booked).toBe(201);

    await signIn(page, e2e.server.url, DEMO.poster, DEMO.password, "/admin/inbox");
    await expect.poll(() => page.getByRole("heading", { level: 1, name: "Access Denied" }).isVisible()).toBe(true);
    await page.goto("about:blank");
    await context.clearCookies();

    await signIn(page, e2e.server.url, DEMO.admin, DEMO.password, "/admin/inbox");
    await expect.poll(() => page.getByRole("cell", { name: subject }).isVisible()).toBe(true);
    expect(await page.title()).toBe("Inbox | Errandly");
    const violations = await seriousAxeViolations(page);
    expect(violations, formatViolations(violations)).toEqual([]);
    await page.getByRole("tab", { name: "Appointment Requests" }).click();
    await expect.poll(() => page.getByText("Quinn Planner", { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole("cell", { name: "Text Message" }).first().isVisible()).toBe(true);
    page.assertClean();
    await context.close();
  });
});
