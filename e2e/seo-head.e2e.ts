import { describe, expect, it } from "vitest";
import { formatDollars } from "../src/shared/money.js";
import { newPage, useServerAndBrowser } from "./harness.js";

// What crawlers and link previews read from the built app: a task page's HTML, fetched as a plain
// HTTP request with no JavaScript, carries its own title, budget and share tags, and the share image
// is really shipped; and the browser tab keeps the right title while the app navigates (issue 17;
// docs/decisions/028-head-tags-from-the-server.md). Each public page's own title, description and
// indexing, robots.txt and sitemap.xml are server tests (src/server/features/seo/seo.test.ts, and
// src/shared/page-head.test.ts for one description per page); Lighthouse's SEO score is in
// budgets.e2e.ts, in one run with accessibility.

const e2e = useServerAndBrowser();

function decode(text: string): string {
  return text.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));
}
const titleOf = (html: string) => [...html.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => decode(m[1] ?? ""));
const metaOf = (html: string, key: string) => {
  const found = new RegExp(`<meta (?:name|property)="${key}" content="([^"<>]*)" />`).exec(html);
  return found ? decode(found[1] ?? "") : undefined;
};

async function html(path: string): Promise<string> {
  const res = await fetch(`${e2e.server.url}${path}`);
  expect(res.status, path).toBe(200);
  return res.text();
}

describe("a task page's head tags without JavaScript", () => {
  it("a task page carries the task's title, budget and share tags; a profile the display name", async () => {
    const tasks = (await (await fetch(`${e2e.server.url}/api/tasks/open`)).json()) as { id: string; title: string; budget: number; poster: { id: string; displayName: string } }[];
    const task = tasks[0];
    if (!task) throw new Error("the demo seed has no open task");
    const body = await html(`/task/${task.id}`);
    expect(titleOf(body)).toEqual([`${task.title} | Errandly`]);
    expect(metaOf(body, "og:title")).toBe(`${task.title} | Errandly`);
    expect(metaOf(body, "og:description")).toContain(`Budget ${formatDollars(Math.round(task.budget * 100))}`);
    expect(metaOf(body, "og:url")).toBe(`${e2e.server.url}/task/${task.id}`);
    const image = metaOf(body, "og:image");
    expect(image).toBe(`${e2e.server.url}/og-image.png`);
    // The default share image is really shipped.
    const png = await fetch(image ?? "");
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");

    const profile = await html(`/users/${task.poster.id}`);
    expect(titleOf(profile)).toEqual([`${task.poster.displayName}'s profile | Errandly`]);
  });
});

describe("titles while the app navigates", () => {
  it("document.title follows client navigation, to a task's own title", async () => {
    const context = await e2e.browser.newContext();
    const page = await newPage(context);
    await page.goto(`${e2e.server.url}/`);
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
    await page.goto(`${e2e.server.url}/job-board`);
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
