import { describe, expect, it } from "vitest";
import type { Download, Page } from "playwright-core";
import { pdfText } from "../test/pdf-text.js";
import { atBothWidths, downloadedBody, formatViolations, newPerson, PHONE, seriousAxeViolations, useSharedServer } from "./harness.js";
import { parcelPickup } from "../test/fixtures/task-bodies.js";

// A poster pays by card, opens the receipt and downloads its PDF; the provider exports the earnings
// CSV and opens the yearly statement, walked once; each screen axe clean and nothing scrolling
// sideways at a phone's width and a desktop's.

const e2e = useSharedServer();

async function downloaded(page: Page, click: () => Promise<void>): Promise<{ download: Download; body: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent("download"), click()]);
  return { download, body: await downloadedBody(download) };
}

/** The screen at a phone's width and a desktop's: axe clean, nothing scrolling sideways. */
async function checkPage(page: Page): Promise<void> {
  await atBothWidths(page, async () => {
    expect(formatViolations(await seriousAxeViolations(page))).toBe("");
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
}

describe("receipts and statements, each screen at 390 and 1366 px", () => {
  it("a poster pays, opens the receipt and downloads its PDF; the provider exports CSV and opens the statement", async () => {
    const viewport = PHONE;
    const width = viewport.width;
    // A poster and a provider of this test's own on the run's shared server.
    const poster = await newPerson(e2e, "poster", "/dashboard", { viewport, acceptDownloads: true });
    const provider = await newPerson(e2e, "provider", "/dashboard", { viewport, acceptDownloads: true });

    const title = `Receipt journey ${width}, "quoted", =SUM(1)`;
    const task = await e2e.api<{ id: string }>(poster, "POST", "/api/tasks", parcelPickup(title, { budget: 60, urgency: "urgent" }));
    await e2e.api(provider, "PATCH", `/api/tasks/${task.id}/claim`);

    await poster.goto(`${e2e.server.url}/task/${task.id}`);
    await poster.getByRole("button", { name: /^Pay by card \(\$[\d.,]+\)$/ }).click();
    await poster.getByLabel("Card number").fill("4242 4242 4242 4242");
    await poster.getByLabel("Expiry (MM/YY)").pressSequentially("1234");
    await poster.getByLabel("CVC").fill("123");
    await poster.getByRole("button", { name: /^Pay \$/ }).click();
    await expect.poll(() => poster.getByText("Payment Successful").first().isVisible()).toBe(true);

    // $60 urgent: $9 surcharge, service fee ceil(8% of $69) + $0.50 = $6.02, total $75.02.
    await poster.goto(`${e2e.server.url}/receipts`);
    const link = poster.getByRole("link", { name: `Payment receipt: ${title}` });
    await expect.poll(() => link.isVisible(), { timeout: 15_000 }).toBe(true);
    await checkPage(poster);
    await link.click();
    await expect.poll(() => poster.getByRole("heading", { level: 1, name: "Payment receipt" }).isVisible()).toBe(true);
    const receiptText = await poster.locator("article").innerText();
    for (const line of [/Budget\s+\$60\.00/, /Urgent surcharge\s+\$9\.00/, /Service fee\s+\$6\.02/, /Total charged to card ending 4242\s+\$75\.02/]) {
      expect(receiptText).toMatch(line);
    }
    const number = /Receipt number (ER-\d{8}-[0-9A-F]{8})/.exec(receiptText)?.[1];
    expect(number).toBeDefined();
    await checkPage(poster);

    const pdf = await downloaded(poster, () => poster.getByRole("link", { name: "Download PDF" }).click());
    expect(pdf.download.suggestedFilename()).toBe(`errandly-receipt-${number}.pdf`);
    const text = pdfText(pdf.body).replace(/\s+/g, " ");
    expect(text).toContain(`Receipt number: ${number}`);
    expect(text).toContain("Total charged to card ending 4242 $75.02");
    expect(text).toContain(`Task: ${title}`);

    // Below $100 the money is released at completion, onto the provider's earnings.
    await e2e.api(provider, "PATCH", `/api/tasks/${task.id}/start`);
    await e2e.api(provider, "PATCH", `/api/tasks/${task.id}/complete`);
    await provider.goto(`${e2e.server.url}/earnings`);
    const exportLink = provider.getByRole("link", { name: "Export CSV" });
    await expect.poll(() => exportLink.isVisible(), { timeout: 15_000 }).toBe(true);
    await checkPage(provider);
    const csv = await downloaded(provider, () => exportLink.click());
    expect(csv.download.suggestedFilename()).toMatch(/^errandly-earnings-\d{4}-\d{2}-\d{2}\.csv$/);
    // $69 of work less the 15% commission: $58.65; the title quoted, its formula kept as text.
    expect(csv.body.toString("utf8")).toContain(`,Released,"Receipt journey ${width}, ""quoted"", '=SUM(1)",${task.id},58.65\r\n`);

    const year = new Date().getUTCFullYear();
    await provider.getByRole("link", { name: `Statement ${year}` }).click();
    await expect.poll(() => provider.getByRole("heading", { level: 1, name: `Yearly statement ${year}` }).isVisible()).toBe(true);
    await expect.poll(() => provider.getByText(/Form 1099-K/).isVisible()).toBe(true);
    await checkPage(provider);
    poster.assertClean();
    provider.assertClean();
    await poster.context().close();
    await provider.context().close();
  });
});
