import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { formatDollars } from "../src/shared/money.js";
import { benchPages, failingAudits, launchDebuggableChromium, runLighthouse } from "../bench/lighthouse.js";
import { newPage, startServer, type RunningServer } from "./harness.js";

// What crawlers and link previews read: each public page's HTML, fetched as a plain HTTP request
// with no JavaScript, carries its own title and description (and a task page its share tags); and
// the browser tab keeps the right title while the app navigates (issue 17;
// docs/decisions/028-head-tags-from-the-server.md).

let server: RunningServer;
let browser: Browser;
let debuggingPort: number;

beforeAll(async () => {
  server = await startServer();
  ({ browser, port: debuggingPort } = await launchDebuggableChromium());
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const PUBLIC_PAGES: [path: string, title: string][] = [
  ["/", "Errandly: local errands and tasks, done by verified providers"],
  ["/how-it-works", "How It Works | Errandly"],
  ["/services", "Our Services | Errandly"],
  ["/pricing", "Pricing | Errandly"],
  ["/faq", "Frequently Asked Questions | Errandly"],
  ["/provider-benefits", "Provider Benefits | Errandly"],
  ["/requirements", "Provider Requirements | Errandly"],
  ["/provider-support", "Provider Support | Errandly"],
  ["/privacy", "Privacy Policy | Errandly"],
  ["/terms", "Terms of Service | Errandly"],
  ["/contact", "Contact Us | Errandly"],
  ["/book-appointment", "Schedule an Office Visit | Errandly"],
  ["/job-board", "Job Board | Errandly"],
  ["/providers", "Browse Available Providers | Errandly"],
];

function decode(text: string): string {
  return text.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));
}
const titleOf = (html: string) => [...html.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => decode(m[1] ?? ""));
const metaOf = (html: string, key: string) => {
  const found = new RegExp(`<meta (?:name|property)="${key}" content="([^"<>]*)" />`).exec(html);
  return found ? decode(found[1] ?? "") : undefined;
};

async function html(path: string): Promise<string> {
  const res = await fetch(`${server.url}${path}`);
  expect(res.status, path).toBe(200);
  return res.text();
}

describe("head tags without JavaScript", () => {
  it("every public page's HTML has its own title and description", async () => {
    const descriptions = new Set<string>();
    for (const [path, title] of PUBLIC_PAGES) {
      const body = await html(path);
      expect(titleOf(body), path).toEqual([title]);
      const description = metaOf(body, "description");
      expect(description?.length, path).toBeGreaterThan(50);
      if (description) descriptions.add(description);
      expect(metaOf(body, "robots"), path).toBeUndefined();
    }
    // Each page describes itself (the job board's two addresses are one page).
    expect(descriptions.size).toBe(PUBLIC_PAGES.length);
  });

  it("a task page carries the task's title, budget and share tags; a profile the display name", async () => {
    const tasks = (await (await fetch(`${server.url}/api/tasks/open`)).json()) as { id: string; title: string; budget: number; poster: { id: string; displayName: string } }[];
    const task = tasks[0];
    if (!task) throw new Error("the demo seed has no open task");
    const body = await html(`/task/${task.id}`);
    expect(titleOf(body)).toEqual([`${task.title} | Errandly`]);
    expect(metaOf(body, "og:title")).toBe(`${task.title} | Errandly`);
    expect(metaOf(body, "og:description")).toContain(`Budget ${formatDollars(Math.round(task.budget * 100))}`);
    expect(metaOf(body, "og:url")).toBe(`${server.url}/task/${task.id}`);
    const image = metaOf(body, "og:image");
    expect(image).toBe(`${server.url}/og-image.png`);
    // The default share image is really shipped.
    const png = await fetch(image ?? "");
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");

    const profile = await html(`/users/${task.poster.id}`);
    expect(titleOf(profile)).toEqual([`${task.poster.displayName}'s profile | Errandly`]);
  });

  it("robots.txt and sitemap.xml are served", async () => {
    const robots = await (await fetch(`${server.url}/robots.txt`)).text();
    expect(robots).toContain(`Sitemap: ${server.url}/sitemap.xml`);
    const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
    expect(sitemap).toContain(`<loc>${server.url}/pricing</loc>`);
    expect(sitemap).toMatch(/<loc>[^<]+\/task\/[0-9a-f-]{36}<\/loc><lastmod>/);
  });
});

describe("titles while the app navigates", () => {
  it("document.title follows client navigation, to a task's own title", async () => {
    const context = await browser.newContext();
    const page = await newPage(context);
    await page.goto(`${server.url}/`);
    await expect.poll(() => page.title()).toBe("Errandly: local errands and tasks, done by verified providers");

    // Footer links are client-side navigation (wouter), no page load.
    await page.getByRole("contentinfo").getByRole("link", { name: "Pricing" }).click();
    await page.getByRole("heading", { level: 1, name: "Pricing" }).waitFor();
    expect(await page.title()).toBe("Pricing | Errandly");
    expect(await page.locator('meta[name="description"]').getAttribute("content")).toContain("service fee");

    await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).click();
    await page.getByRole("heading", { level: 1, name: "Privacy Policy" }).waitFor();
    expect(await page.title()).toBe("Privacy Policy | Errandly");

    // A task opened from the job board: the page's title is the task's.
    await page.goto(`${server.url}/job-board`);
    const firstCard = page.locator('main a[href^="/task/"]').first();
    await firstCard.waitFor();
    await firstCard.click();
    await page.waitForURL(/\/task\//);
    const heading = (await page.getByRole("heading", { level: 1 }).first().textContent()) ?? "";
    await expect.poll(() => page.title()).toBe(`${heading.trim()} | Errandly`);

    // Back on a fixed page, the route's title again.
    await page.goBack();
    await expect.poll(() => page.title()).toBe("Job Board | Errandly");
    await context.close();
  });
});

describe("Lighthouse SEO", () => {
  // Unlike performance, the SEO audits read the page, not the clock, so they hold on a busy machine.
  it("is 100 on the landing page, the job board, a task page and an information page", async () => {
    const failures: string[] = [];
    const pages = [...(await benchPages(server.url)), { name: "pricing", url: `${server.url}/pricing` }];
    for (const { name, url } of pages) {
      const lhr = await runLighthouse(url, debuggingPort, "mobile", ["seo"]);
      const score = Math.round((lhr.categories.seo?.score ?? 0) * 100);
      console.log(`Lighthouse SEO ${name}: ${score}`);
      if (score !== 100) failures.push(`${name} ${score}: ${failingAudits(lhr, "seo").join("; ")}`);
    }
    expect(failures, failures.join("\n")).toEqual([]);
  });
});
