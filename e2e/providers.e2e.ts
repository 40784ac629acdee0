import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { tinyPdf, tinyPng } from "../test/fixtures/test-files.js";
import { DEMO, formatViolations, latestMailLink, newPage, seriousAxeViolations, signIn, useServerAndBrowser } from "./harness.js";

// Pages are code-split and the machine is small: give lazy chunks time to load.
const POLL = { timeout: 15_000 };

const e2e = useServerAndBrowser();

async function signUp(page: Page, firstName: string, lastName: string, email: string) {
  await page.goto(`${e2e.server.url}/become-provider`);
  await page.waitForURL(/\/sign-in\?returnTo=%2Fbecome-provider/);
  await page.getByRole("tab", { name: "Sign Up" }).click();
  await page.getByLabel("First name").fill(firstName);
  await page.getByLabel("Last name").fill(lastName);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/^Password/).fill("a long password");
  await page.getByRole("button", { name: "Create Account" }).click();
  // Registering signs nobody in: the e-mailed link verifies, signs in and leads back to the application.
  await expect.poll(() => page.getByRole("heading", { name: "Check your inbox" }).isVisible(), POLL).toBe(true);
  await page.goto(await latestMailLink(e2e.server, email, "/verify-email"));
  await page.getByRole("link", { name: "Continue your provider application" }).click();
  await page.waitForURL(`${e2e.server.url}/become-provider`, POLL);
}

async function expectNoSeriousViolations(page: Page) {
  const violations = await seriousAxeViolations(page);
  expect(violations, formatViolations(violations)).toEqual([]);
}

const toast = (page: Page, text: string) => expect.poll(() => page.getByText(text, { exact: true }).first().isVisible(), POLL).toBe(true);

describe("providers", () => {
  it("a new user applies with real files, the admin reviews and approves, and the provider claims a task", async () => {
    const applicantContext = await e2e.browser.newContext();
    const page = await newPage(applicantContext);
    await signUp(page, "Riley", "Stone", "riley@example.test");

    await expect.poll(() => page.getByRole("heading", { name: "Turn Your Free Time Into Income" }).isVisible(), POLL).toBe(true);
    await expectNoSeriousViolations(page);
    expect(await page.getByLabel("Full Name").inputValue()).toBe("Riley Stone");
    expect(await page.getByLabel("Email").inputValue()).toBe("riley@example.test");
    const submit = page.getByRole("button", { name: "Submit Application" });
    expect(await submit.isDisabled()).toBe(true);

    await page.getByLabel("Phone").fill("(410) 555-0188");
    await page.getByLabel("Address").fill("7 Dock St");
    await page.getByLabel("City").fill("Annapolis");
    await page.getByLabel("State").selectOption({ label: "Maryland" });
    await page.getByLabel("ZIP Code").fill("21401");
    await page.getByLabel("Personal Errands").check();
    await page.getByLabel("Delivery Services").check();
    await page.getByLabel(/^ID Document/).and(page.locator("input[type=file]")).setInputFiles({ name: "license.pdf", mimeType: "application/pdf", buffer: tinyPdf() });
    await expect.poll(() => page.getByRole("progressbar", { name: "ID Document upload progress" }).getAttribute("aria-valuenow"), POLL).toBe("100");
    await toast(page, "ID Document Uploaded");
    await expect.poll(() => page.getByRole("form", { name: "Provider application" }).getByText("license.pdf").isVisible(), POLL).toBe(true);
    await page.getByLabel(/^Profile Photo/).and(page.locator("input[type=file]")).setInputFiles({ name: "me.png", mimeType: "image/png", buffer: tinyPng() });
    await expect.poll(() => page.getByRole("progressbar", { name: "Profile Photo upload progress" }).isVisible(), POLL).toBe(true);
    await toast(page, "Profile Photo Uploaded");
    await expect.poll(() => page.getByRole("img", { name: "Profile Photo preview" }).isVisible(), POLL).toBe(true);
    await page.getByLabel("Monday").click();
    await page.getByLabel("Bio").fill("Careful driver with a big trunk.");
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel(/I agree to the terms/).check();
    await submit.click();
    await page.waitForURL(`${e2e.server.url}/dashboard`);
    await toast(page, "Application Submitted!");
    await expect.poll(() => page.getByText("Verification Pending").isVisible(), POLL).toBe(true);

    const adminContext = await e2e.browser.newContext();
    const admin = await newPage(adminContext);
    await signIn(admin, e2e.server.url, DEMO.admin, DEMO.password, "/admin");
    const card = admin.getByRole("article", { name: "Application from Riley Stone" });
    await expect.poll(() => card.isVisible(), POLL).toBe(true);
    await expectNoSeriousViolations(admin);
    await card.getByRole("button", { name: "View Details" }).click();
    const dialog = admin.getByRole("dialog", { name: "Application Details" });
    await expect.poll(() => dialog.getByText("7 Dock St").isVisible(), POLL).toBe(true);
    expect(await dialog.getByRole("link", { name: "View ID Document" }).getAttribute("href")).toMatch(/^\/objects\//);
    await admin.keyboard.press("Escape");
    await card.getByRole("button", { name: "Mark Under Review" }).click();
    await toast(admin, "Status Updated");
    await admin.getByRole("tab", { name: /Under Review \(\d+\)/ }).click();
    // Approval needs a clear background check (docs/decisions/064-background-checks.md).
    const reviewing = admin.getByRole("article", { name: "Application from Riley Stone" });
    expect(await reviewing.getByRole("button", { name: "Approve" }).isDisabled()).toBe(true);
    await reviewing.getByRole("button", { name: "Record a check" }).click();
    const check = admin.getByRole("dialog", { name: "Record a background check" });
    await check.getByLabel("What was checked").fill("County criminal records, MD, 7 years");
    await check.getByLabel("Result").selectOption("clear");
    await check.getByRole("button", { name: "Record check" }).click();
    await toast(admin, "Check recorded");
    await reviewing.getByRole("button", { name: "Approve" }).click();
    await toast(admin, "Application Approved");
    await admin.getByRole("tab", { name: /Active Providers/ }).click();
    await expect.poll(() => admin.getByRole("heading", { name: "Riley Stone" }).isVisible(), POLL).toBe(true);

    await page.goto(`${e2e.server.url}/dashboard`);
    await expect.poll(() => page.getByText("Verified Provider").isVisible(), POLL).toBe(true);
    await page.goto(`${e2e.server.url}/job-board`);
    // The cards show take-home pay once the page knows a provider reads it; a Claim pressed before
    // then is a visitor's, which leads to sign-in instead of the confirmation.
    await expect.poll(() => page.getByText(/^You'll earn \$/).first().isVisible(), POLL).toBe(true);
    await page.getByRole("button", { name: /^Claim Task/ }).first().click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Yes, claim it" }).click();
    await toast(page, "Task claimed successfully!");
    page.assertClean([/401 \(Unauthorized\)/, /404 \(Not Found\)/]);
    admin.assertClean([/401 \(Unauthorized\)/]);
    await applicantContext.close();

    // A second applicant (applying through the API) is rejected with a reason.
    const secondContext = await e2e.browser.newContext();
    const second = await newPage(secondContext);
    await signUp(second, "Sam", "Reed", "sam@example.test");
    const upload = async (kind: "id_document" | "profile_photo", body: Buffer) => {
      const { uploadURL } = (await (await second.request.post(`${e2e.server.url}/api/objects/upload`, { data: { kind }, headers: { origin: e2e.server.url } })).json()) as { uploadURL: string };
      expect((await second.request.put(`${e2e.server.url}${uploadURL}`, { data: body, headers: { origin: e2e.server.url, "content-type": "image/png" } })).ok()).toBe(true);
      const url = kind === "id_document" ? "set-id-document" : "set-profile-photo";
      const payload = kind === "id_document" ? { idDocumentURL: uploadURL } : { profilePhotoURL: uploadURL };
      const res = await second.request.put(`${e2e.server.url}/api/provider/${url}`, { data: payload, headers: { origin: e2e.server.url } });
      return ((await res.json()) as { objectPath: string }).objectPath;
    };
    const applied = await second.request.post(`${e2e.server.url}/api/provider/apply`, {
      headers: { origin: e2e.server.url },
      data: {
        fullName: "Sam Reed",
        email: "sam@example.test",
        phone: "4105550177",
        address: "9 Elm St",
        city: "Annapolis",
        state: "MD",
        zipCode: "21403",
        serviceTypes: ["pet"],
        idDocumentUrl: await upload("id_document", tinyPng()),
        profilePhotoUrl: await upload("profile_photo", tinyPng()),
        availability: {},
        bio: "Dog lover.",
        agreeTerms: true,
      },
    });
    expect(applied.status()).toBe(201);

    await admin.goto(`${e2e.server.url}/admin`);
    const samCard = admin.getByRole("article", { name: "Application from Sam Reed" });
    await samCard.getByRole("button", { name: "Reject" }).click();
    const reject = admin.getByRole("dialog", { name: "Reject Application" });
    const confirm = reject.getByRole("button", { name: "Reject Application" });
    expect(await confirm.isDisabled()).toBe(true);
    await reject.getByLabel("Rejection Reason").fill("   ");
    expect(await confirm.isDisabled()).toBe(true);
    await reject.getByLabel("Rejection Reason").fill("ID photo is unreadable");
    await confirm.click();
    await toast(admin, "Application Rejected");
    await expect.poll(() => admin.getByText("No pending applications").isVisible(), POLL).toBe(true);

    await second.goto(`${e2e.server.url}/dashboard`);
    await expect.poll(() => second.getByText("Application Rejected").isVisible(), POLL).toBe(true);
    expect(await second.getByText("ID photo is unreadable").isVisible()).toBe(true);
    expect(await second.getByRole("link", { name: "submit a new application" }).getAttribute("href")).toBe("/become-provider");
    await secondContext.close();

    await admin.goto(`${e2e.server.url}/providers`);
    // The directory shows display names (docs/product.md, "People you can see").
    await expect.poll(() => admin.getByRole("heading", { name: "Riley S." }).isVisible(), POLL).toBe(true);
    expect(await admin.getByText("Sam R.").count()).toBe(0);
    await expectNoSeriousViolations(admin);
    await admin.getByTestId("theme-toggle").first().click();
    await admin.waitForSelector("html.dark", { state: "attached" });
    await expectNoSeriousViolations(admin);
    await admin.goto(`${e2e.server.url}/admin`);
    await expect.poll(() => admin.getByRole("tab", { name: /Pending \(0\)/ }).isVisible(), POLL).toBe(true);
    await expectNoSeriousViolations(admin);
    await adminContext.close();
  }, 180_000); // Longer than the default: sign-up now goes through the e-mailed link.
});
