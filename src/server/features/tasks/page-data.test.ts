import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { call, createUser, type TestUser, useTestApp } from "../../../../test/create-test-app.js";
import { askQuestion, createPoster, createProvider, postTask, transition } from "../../../../test/fixtures/factory.js";

// The job board's first page and a task page, rendered into the HTML with the tasks feature's own
// answers as a signed-out visitor gets them (issue 17, docs/decisions/036-server-rendered-data-pages.md).
// The web app's renderer is the build's (e2e/server-rendered-pages.e2e.ts drives it); here a stand-in
// writes each answer's titles, so what is tested is the server: which answer, how it is sent, its ETag.

const webDist = mkdtempSync(join(tmpdir(), "errandly-page-data-web-"));
writeFileSync(
  join(webDist, "index.html"),
  '<!doctype html><html><head><!-- page-head --><title>Build title</title><!-- /page-head --></head><body><div id="root"></div><script type="module" src="/assets/app-1.js"></script></body></html>',
);
mkdirSync(join(webDist, ".vite", "ssr"), { recursive: true });
writeFileSync(
  join(webDist, ".vite", "ssr", "entry-server.js"),
  `
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
export function pageDataRequest(path, search) {
  if (path === "/job-board") return { kind: "board", query: search };
  const id = /^\\/tasks?\\/([^/]+)$/.exec(path)?.[1];
  return id ? { kind: "task", id: decodeURIComponent(id) } : null;
}
export async function renderDataPage(path, search, request, data, renderedAt) {
  // A task page's answer is the task and its public questions, as the web's seededQueries reads it.
  const titles = request.kind === "board" ? data.map((t) => t.title) : [data.task.title, ...data.questions.questions.map((q) => q.body)];
  const queries = request.kind === "board" ? [{ key: [path, search], data }] : [{ key: [path, search], data: data.task }, { key: [path, "questions"], data: data.questions }];
  return {
    markup: "<main>" + titles.map((t) => "<h2>" + esc(t) + "</h2>").join("") + "</main>",
    state: { renderedAt: renderedAt.toISOString(), queries },
  };
}
`,
);
const t = await useTestApp({ WEB_DIST_DIR: webDist });

const page = (url: string, user: TestUser | null = null, headers: Record<string, string> = {}) => call(t, user, { method: "GET", url, headers });

/** The markup inside the root and the answer sent with it (null without one). */
function rendered(html: string): { markup: string; data: unknown } {
  const markup = /<div id="root">(.*?)<\/div>/s.exec(html)?.[1] ?? "";
  const element = /<script type="application\/json" id="page-data">([^<]*)<\/script>/.exec(html);
  const state = element ? (JSON.parse(element[1] ?? "") as { queries: { data: unknown }[] }) : null;
  return { markup, data: state?.queries[0]?.data ?? null };
}

const STREET = "221 Harbor Lane";
const poster = await createPoster(t, { firstName: "Maria", lastName: "Gonzalez" });
const pet = await postTask(t, poster, { body: { title: "Walk the beagle", category: "pet", location: STREET } });
const errand = await postTask(t, poster, { body: { title: "Post a parcel", category: "errands" } });

describe("server-rendered job board", () => {
  it("holds the board's first page, and sends the very answer GET /api/tasks/open gives", async () => {
    const res = await page("/job-board");
    expect(res.statusCode).toBe(200);
    const { markup, data } = rendered(res.body);
    const answer = (await page("/api/tasks/open")).json<{ title: string }[]>();
    expect(data).toEqual(answer);
    expect(answer.map((task) => task.title).sort()).toEqual(["Post a parcel", "Walk the beagle"]);
    expect(markup).toBe(`<main>${answer.map((task) => `<h2>${task.title}</h2>`).join("")}</main>`);
    // The same for everyone: a signed-in person gets the visitor's HTML.
    expect((await page("/job-board", poster)).body).toBe(res.body);
  });

  it("answers a category's page with that category only", async () => {
    const { data } = rendered((await page("/job-board?category=pet")).body);
    expect(data).toEqual((await page("/api/tasks/open?category=pet")).json());
    expect((data as { title: string }[]).map((task) => task.title)).toEqual(["Walk the beagle"]);
  });

  it("loads the page without data, never an error, for a query the API refuses", async () => {
    for (const url of ["/job-board?minBudget=-5", "/job-board?near=00000", "/job-board?sort=distance", "/job-board?radiusMiles=10", "/job-board?category=dragons"]) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(200);
      expect(rendered(res.body), url).toEqual({ markup: "", data: null });
    }
  });

  it("changes its ETag when a task joins the board, and answers 304 while nothing changed", async () => {
    const before = await page("/job-board");
    const etag = String(before.headers.etag);
    expect(before.headers["cache-control"]).toBe("no-cache");
    expect((await page("/job-board", null, { "if-none-match": etag })).statusCode).toBe(304);
    await postTask(t, poster, { body: { title: "Water the plants", category: "errands" } });
    const after = await page("/job-board", null, { "if-none-match": etag });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect(rendered(after.body).markup).toContain("Water the plants");
  });
});

describe("server-rendered task page", () => {
  it("holds the task as a signed-out visitor sees it, whoever asks: no street address, no full name", async () => {
    const visitor = await page(`/task/${pet.id}`);
    const { markup, data } = rendered(visitor.body);
    expect(markup).toBe("<main><h2>Walk the beagle</h2></main>");
    expect(data).toEqual((await page(`/api/tasks/${pet.id}`)).json());
    expect(data).toMatchObject({ visibility: "public", poster: { displayName: "Maria G." } });
    for (const asker of [null, poster, await createProvider(t), await createUser(t, { role: "admin" })]) {
      const res = await page(`/tasks/${pet.id}`, asker);
      expect(rendered(res.body).data).toEqual(data);
      expect(res.body).not.toContain(STREET);
      expect(res.body).not.toContain("Gonzalez");
    }
  });

  it("changes its ETag when the task changes, and answers 304 while it does not", async () => {
    const first = await page(`/task/${errand.id}`);
    const etag = String(first.headers.etag);
    expect((await page(`/task/${errand.id}`, null, { "if-none-match": etag })).statusCode).toBe(304);
    await transition(t, "claim", errand.id, await createProvider(t));
    const after = await page(`/task/${errand.id}`, null, { "if-none-match": etag });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect(rendered(after.body).data).toMatchObject({ status: "claimed" });
  });

  it("keeps a page rendered from the same answer for 10 seconds, then renders it at the new time", async () => {
    const first = await page(`/task/${pet.id}`);
    expect((await page(`/task/${pet.id}`)).headers.etag).toBe(first.headers.etag);
    t.clock.advance(10_001);
    const later = await page(`/task/${pet.id}`);
    expect(later.headers.etag).not.toBe(first.headers.etag);
    expect(rendered(later.body)).toEqual(rendered(first.body));
  });

  it("holds the task's public questions, masked, without hidden ones, and a new question changes its ETag", async () => {
    const task = await postTask(t, poster, { body: { title: "Move a sofa" } });
    const first = await page(`/task/${task.id}`);
    const asker = await createProvider(t);
    await askQuestion(t, asker, task.id, "Can I call you on 410 555 0199 first?");
    const hiddenId = await askQuestion(t, asker, task.id, "A question the poster hides");
    expect((await call(t, poster, { method: "POST", url: `/api/tasks/${task.id}/questions/${hiddenId}/hide` })).statusCode).toBe(200);
    const after = await page(`/task/${task.id}`, null, { "if-none-match": String(first.headers.etag) });
    expect(after.statusCode).toBe(200);
    expect(rendered(after.body).markup).toBe("<main><h2>Move a sofa</h2><h2>Can I call you on [hidden: phone] first?</h2></main>");
    expect(after.body).not.toContain("0199");
    expect(after.body).not.toContain("the poster hides");
  });

  it("keeps user text inside the data element: no closing tag, no comment, the same text read back", async () => {
    const title = "</script><script>alert(1)</script><!--";
    const description = "<img src=x onerror=alert(1)> & \u2028 </SCRIPT >";
    const task = await postTask(t, poster, { body: { title, description } });
    const res = await page(`/task/${task.id}`);
    expect(res.body).not.toContain("<script>alert(1)");
    expect(res.body).not.toContain("<img src=x");
    expect(res.body).not.toMatch(/<\/script>\s*<script>alert/i);
    expect(rendered(res.body).data).toMatchObject({ title, description });
    expect(rendered(res.body).markup).toBe("<main><h2>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!--</h2></main>");
  });

  it("an unknown task, or an address that is no task id, gets the app without data and stays out of search results", async () => {
    for (const url of ["/task/00000000-0000-4000-8000-000000000000", "/task/not-a-task", "/tasks/%27%3B%20drop%20table%20tasks"]) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(200);
      expect(rendered(res.body), url).toEqual({ markup: "", data: null });
      expect(res.body, url).toContain('<meta name="robots" content="noindex" />');
    }
  });

  it("is sent as Brotli when the browser takes it, and answers HEAD; the CSP still allows no inline script", async () => {
    const plain = await page(`/task/${pet.id}`);
    const compressed = await call(t, null, { method: "GET", url: `/task/${pet.id}`, headers: { "accept-encoding": "gzip, br" } });
    expect(compressed.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(compressed.rawPayload).toString()).toBe(plain.body);
    expect(compressed.headers.etag).toBe(plain.headers.etag);
    const head = await call(t, null, { method: "HEAD", url: `/task/${pet.id}` });
    expect(head.statusCode).toBe(200);
    const scriptSrc = String(plain.headers["content-security-policy"]).split(";").find((d) => d.startsWith("script-src"));
    expect(scriptSrc).toBe("script-src 'self'");
  });
});
