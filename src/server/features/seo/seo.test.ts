import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { brotliDecompressSync } from "node:zlib";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, createUser, TEST_ORIGIN, useTestApp } from "../../../../test/create-test-app.js";
import { postTask, transition } from "../../../../test/fixtures/factory.js";
import { tasks } from "../../db/schema/tasks.js";
import { PROJECT_ROOT } from "../../paths.js";
import { SITEMAP_TASK_LIMIT } from "./routes.js";

// The HTML the server sends per address (title, description, robots, Open Graph and Twitter tags),
// robots.txt and sitemap.xml (issue 17; docs/decisions/028-head-tags-from-the-server.md).

// A built index.html as Vite writes it: the page-head markers of src/web/index.html survive the build.
const webDist = mkdtempSync(join(tmpdir(), "errandly-seo-web-"));
writeFileSync(
  join(webDist, "index.html"),
  [
    "<!doctype html><html><head>",
    "<!-- page-head -->",
    "<title>Build title</title>",
    '<meta name="description" content="Build description" />',
    "<!-- /page-head -->",
    '<script type="module" src="/assets/app-1.js"></script></head><body><div id="root"></div></body></html>',
  ].join("\n"),
);
// The build's prerendered markup of one public page (scripts/prerender.mjs; decision 033).
mkdirSync(join(webDist, ".vite"));
writeFileSync(join(webDist, ".vite", "prerendered.json"), JSON.stringify({ "/pricing": "<main><h1>Pricing</h1><p>You set the budget.</p></main>" }));
const t = await useTestApp({ WEB_DIST_DIR: webDist });

const page = (url: string, headers: Record<string, string> = {}) => call(t, null, { method: "GET", url, headers });

function decode(text: string): string {
  return text.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));
}
/** The <title>s of a page (there must be exactly one). */
function titles(html: string): string[] {
  return [...html.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => decode(m[1] ?? ""));
}
/** A meta tag's content by name or property; a value can only be read back if its quotes held. */
function meta(html: string, key: string): string | undefined {
  const found = new RegExp(`<meta (?:name|property)="${key}" content="([^"<>]*)" />`).exec(html);
  return found ? decode(found[1] ?? "") : undefined;
}
function canonical(html: string): string | undefined {
  return /<link rel="canonical" href="([^"<>]*)" \/>/.exec(html)?.[1];
}

describe("head tags in the HTML", () => {
  it("src/web/index.html marks its title and description once, so the build can be injected", () => {
    const html = readFileSync(join(PROJECT_ROOT, "src", "web", "index.html"), "utf8");
    expect(html.split("<!-- page-head -->")).toHaveLength(2);
    expect(html.split("<!-- /page-head -->")).toHaveLength(2);
  });

  const STATIC: [path: string, title: string][] = [
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
  for (const [path, title] of STATIC) {
    it(`${path}: its own title and description, indexable, with its canonical address`, async () => {
      const res = await page(`${path}?utm_source=test`);
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(titles(res.body)).toEqual([title]);
      const description = meta(res.body, "description");
      expect(description).toBeTruthy();
      expect(description).not.toBe("Build description");
      expect(res.body).not.toContain("Build title");
      expect(meta(res.body, "robots")).toBeUndefined();
      expect(canonical(res.body)).toBe(`${TEST_ORIGIN}${path}`);
      expect(meta(res.body, "og:title")).toBe(title);
      expect(meta(res.body, "og:image")).toBe(`${TEST_ORIGIN}/og-image.png`);
    });
  }

  it("an alias names the page it repeats as canonical (/jobs is /job-board)", async () => {
    const res = await page("/jobs");
    expect(titles(res.body)).toEqual(["Job Board | Errandly"]);
    expect(canonical(res.body)).toBe(`${TEST_ORIGIN}/job-board`);
  });

  it("signed-in pages have their titles and are not indexed", async () => {
    for (const [path, title] of [
      ["/dashboard", "Dashboard | Errandly"],
      ["/settings/security", "Settings | Errandly"],
      ["/admin/finance", "Finance | Errandly"],
      // Once also e2e/public-site.e2e.ts's, on the admin's tab.
      ["/admin/inbox", "Inbox | Errandly"],
      ["/earnings", "Earnings | Errandly"],
      ["/sign-in", "Sign In | Errandly"],
    ] as const) {
      const res = await page(path);
      expect(titles(res.body), path).toEqual([title]);
      expect(meta(res.body, "robots"), path).toBe("noindex");
      expect(canonical(res.body), path).toBeUndefined();
    }
  });

  it("an address no page has: a generic title and noindex, still the app", async () => {
    const res = await page("/no/such/page");
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root">');
    expect(titles(res.body)).toEqual(["Page not found | Errandly"]);
    expect(meta(res.body, "robots")).toBe("noindex");
  });

  it("a path that looks like another host stays on this site in og:url", async () => {
    const res = await page("//elsewhere.example/x");
    expect(meta(res.body, "og:url")).toBe(`${TEST_ORIGIN}/elsewhere.example/x`);
  });
});

describe("a task's shared link", () => {
  it("shows its title, budget, category and city, never the poster's name or street", async () => {
    const poster = await createUser(t, { firstName: "Zelda", lastName: "Quorn" });
    const task = await postTask(t, poster, { budgetCents: 4_500, body: { title: "Walk my beagle", category: "pet", location: "12 Secret Lane", city: "Annapolis", state: "MD" } });
    const res = await page(`/task/${task.id}`);
    expect(res.statusCode).toBe(200);
    expect(titles(res.body)).toEqual(["Walk my beagle | Errandly"]);
    const description = "Budget $45 · Pet Care · Annapolis, MD. An open task on Errandly: verified local providers can claim it.";
    expect(meta(res.body, "description")).toBe(description);
    expect(meta(res.body, "og:title")).toBe("Walk my beagle | Errandly");
    expect(meta(res.body, "og:description")).toBe(description);
    expect(meta(res.body, "og:url")).toBe(`${TEST_ORIGIN}/task/${task.id}`);
    expect(meta(res.body, "og:type")).toBe("website");
    expect(meta(res.body, "og:site_name")).toBe("Errandly");
    expect(meta(res.body, "og:image")).toBe(`${TEST_ORIGIN}/og-image.png`);
    expect(meta(res.body, "twitter:card")).toBe("summary_large_image");
    expect(meta(res.body, "twitter:title")).toBe("Walk my beagle | Errandly");
    expect(meta(res.body, "twitter:description")).toBe(description);
    expect(canonical(res.body)).toBe(`${TEST_ORIGIN}/task/${task.id}`);
    expect(meta(res.body, "robots")).toBeUndefined();
    for (const secret of ["Zelda", "Quorn", "Secret Lane"]) expect(res.body).not.toContain(secret);
  });

  it("/tasks/:id is the same page, canonical at /task/:id", async () => {
    const task = await postTask(t, await createUser(t));
    const res = await page(`/tasks/${task.id}`);
    expect(titles(res.body)).toEqual(["Pick up a parcel | Errandly"]);
    expect(canonical(res.body)).toBe(`${TEST_ORIGIN}/task/${task.id}`);
  });

  it("a task that can no longer be claimed says so and leaves search results", async () => {
    const poster = await createUser(t);
    const task = await postTask(t, poster);
    expect(await transition(t, "cancel", task.id, poster)).not.toBeNull();
    const res = await page(`/task/${task.id}`);
    expect(titles(res.body)).toEqual(["Pick up a parcel | Errandly"]);
    expect(meta(res.body, "description")).toContain("no longer open");
    expect(meta(res.body, "robots")).toBe("noindex");
  });

  it("escapes a title written to break out of the tags", async () => {
    const evil = `</title><script>alert("x")</script>' "q" & <b>`;
    const task = await postTask(t, await createUser(t), { body: { title: evil } });
    const res = await page(`/task/${task.id}`);
    expect(res.body).not.toContain("<script>alert");
    expect(res.body).not.toContain("<b>");
    // Exactly the one title element, and every tag's quotes held: the values read back whole.
    expect(res.body.match(/<\/title>/g)).toHaveLength(1);
    expect(titles(res.body)).toEqual([`${evil} | Errandly`]);
    expect(meta(res.body, "og:title")).toBe(`${evil} | Errandly`);
    expect(meta(res.body, "twitter:title")).toBe(`${evil} | Errandly`);
    // The only scripts are the build's.
    expect(res.body.match(/<script/g)).toHaveLength(1);
  });

  it("an unknown task id, or one that is not an id: the app with a generic title and noindex", async () => {
    for (const path of [`/task/${randomUUID()}`, "/task/not-a-task", "/tasks/12345"]) {
      const res = await page(path);
      expect(res.statusCode, path).toBe(200);
      expect(res.body, path).toContain('<div id="root">');
      expect(titles(res.body), path).toEqual(["Task not found | Errandly"]);
      expect(meta(res.body, "robots"), path).toBe("noindex");
    }
  });
});

describe("a public profile's shared link", () => {
  it("shows the display name only", async () => {
    const person = await createUser(t, { firstName: "Maria", lastName: "Gonzalez" });
    const res = await page(`/users/${person.id}`);
    expect(titles(res.body)).toEqual(["Maria G.'s profile | Errandly"]);
    expect(meta(res.body, "og:type")).toBe("profile");
    expect(meta(res.body, "description")).toContain("Maria G.");
    expect(res.body).not.toContain("Gonzalez");
    expect(meta(res.body, "robots")).toBeUndefined();
  });

  it("an unknown person: a generic title and noindex", async () => {
    const res = await page(`/users/${randomUUID()}`);
    expect(titles(res.body)).toEqual(["Profile not found | Errandly"]);
    expect(meta(res.body, "robots")).toBe("noindex");
  });
});

describe("caching the HTML", () => {
  it("revalidates every time (no-cache) and answers 304 to a matching ETag", async () => {
    const first = await page("/pricing");
    expect(first.headers["cache-control"]).toBe("no-cache");
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await page("/pricing", { "if-none-match": etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    // Another page has other tags, so another ETag.
    expect((await page("/faq")).headers.etag).not.toBe(etag);
  });

  it("a task's new title changes its ETag, so no cache keeps the old one", async () => {
    const task = await postTask(t, await createUser(t));
    const before = await page(`/task/${task.id}`);
    await t.database.db.update(tasks).set({ title: "Pick up two parcels" }).where(eq(tasks.id, task.id));
    const after = await page(`/task/${task.id}`, { "if-none-match": String(before.headers.etag) });
    expect(after.statusCode).toBe(200);
    expect(titles(after.body)).toEqual(["Pick up two parcels | Errandly"]);
  });

  it("keeps the security headers (CSP) on the page", async () => {
    const res = await page(`/task/${randomUUID()}`);
    expect(String(res.headers["content-security-policy"])).toContain("script-src 'self'");
  });
});

describe("a prerendered page", () => {
  const markup = '<div id="root"><main><h1>Pricing</h1><p>You set the budget.</p></main></div>';

  it("carries its markup inside the root element, with its own head tags; other pages keep the empty root", async () => {
    const res = await page("/pricing");
    expect(res.body).toContain(markup);
    expect(titles(res.body)).toEqual(["Pricing | Errandly"]);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect((await page("/faq")).body).toContain('<div id="root"></div>');
  });

  it("goes Brotli-compressed to a browser that accepts it, the same bytes once decompressed, with the same ETag", async () => {
    const plain = await page("/pricing");
    for (const encoding of ["gzip, deflate, br", "br;q=1.0, gzip;q=0.8"]) {
      const res = await page("/pricing", { "accept-encoding": encoding });
      expect(res.headers["content-encoding"], encoding).toBe("br");
      expect(String(res.headers.vary)).toContain("accept-encoding");
      expect(res.headers.etag).toBe(plain.headers.etag);
      expect(brotliDecompressSync(res.rawPayload).toString("utf8")).toBe(plain.body);
    }
  });

  it("goes as it is to one that refuses Brotli, and other pages are never compressed", async () => {
    for (const encoding of ["gzip", "br;q=0", "identity"]) {
      const res = await page("/pricing", { "accept-encoding": encoding });
      expect(res.headers["content-encoding"], encoding).toBeUndefined();
      expect(res.body).toContain(markup);
    }
    expect((await page("/faq", { "accept-encoding": "br" })).headers["content-encoding"]).toBeUndefined();
  });
});

describe("GET /robots.txt", () => {
  it("allows the public pages, shuts out the API and private areas, points to the sitemap", async () => {
    const res = await page("/robots.txt");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("public, max-age=86400");
    const lines = res.body.split("\n");
    for (const line of ["User-agent: *", "Allow: /", "Disallow: /api/", "Disallow: /admin", "Disallow: /settings", "Disallow: /dashboard", "Disallow: /provider/", `Sitemap: ${TEST_ORIGIN}/sitemap.xml`]) {
      expect(lines).toContain(line);
    }
    // robots.txt rules are prefixes: none may shut out a public page.
    const disallowed = lines.filter((l) => l.startsWith("Disallow: ")).map((l) => l.slice("Disallow: ".length));
    for (const path of ["/providers", "/provider-benefits", "/provider-support", "/job-board", "/task/x", "/users/x", "/pricing"]) {
      expect(disallowed.filter((prefix) => path.startsWith(prefix)), path).toEqual([]);
    }
  });
});

describe("GET /sitemap.xml", () => {
  it("lists the public pages and open tasks with lastmod, escaped, absolute, cacheable", async () => {
    const poster = await createUser(t);
    const open = await postTask(t, poster, { body: { title: "Sitemap & <open> task" } });
    const cancelled = await postTask(t, poster);
    expect(await transition(t, "cancel", cancelled.id, poster)).not.toBeNull();
    const res = await page("/sitemap.xml");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/xml; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("public, max-age=3600");
    expect(res.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')).toBe(true);
    const locs = [...res.body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toContain(`${TEST_ORIGIN}/`);
    expect(locs).toContain(`${TEST_ORIGIN}/how-it-works`);
    expect(locs).toContain(`${TEST_ORIGIN}/job-board`);
    expect(locs).not.toContain(`${TEST_ORIGIN}/jobs`);
    expect(locs).not.toContain(`${TEST_ORIGIN}/dashboard`);
    expect(locs).toContain(`${TEST_ORIGIN}/task/${open.id}`);
    expect(locs).not.toContain(`${TEST_ORIGIN}/task/${cancelled.id}`);
    expect(res.body).toContain(`<url><loc>${TEST_ORIGIN}/task/${open.id}</loc><lastmod>${open.updatedAt.toISOString()}</lastmod></url>`);
    // Addresses only: no title, so nothing user-written needs escaping beyond the URL.
    expect(res.body).not.toContain("Sitemap &");
    // Well formed: without its <url> entries (each of the one expected shape) only the frame is left.
    expect(res.body.replace(/\s*<url><loc>[^<>&]*<\/loc>(?:<lastmod>[^<>]*<\/lastmod>)?<\/url>/g, "")).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n</urlset>\n',
    );
  });

  it(`lists at most the ${SITEMAP_TASK_LIMIT} newest open tasks`, async () => {
    // Bulk rows straight into the table: posting 5,000 through the API would be minutes of test.
    const poster = await createUser(t);
    const now = Date.now();
    const rows = Array.from({ length: SITEMAP_TASK_LIMIT + 5 }, (_, i) => ({
      userId: poster.id,
      title: `Bulk ${i}`,
      description: "x",
      category: "errands",
      budgetCents: 2_000,
      urgentFeeCents: 0,
      serviceFeeCents: 150,
      totalCents: 2_150,
      providerShareCents: 1_700,
      platformCommissionCents: 300,
      createdAt: new Date(now + i * 1000),
    }));
    const inserted = await t.database.db.insert(tasks).values(rows).returning({ id: tasks.id, title: tasks.title });
    const res = await page("/sitemap.xml");
    const taskLocs = [...res.body.matchAll(/<loc>[^<]*\/task\/([^<]*)<\/loc>/g)].map((m) => m[1]);
    expect(taskLocs).toHaveLength(SITEMAP_TASK_LIMIT);
    const oldest = inserted.filter((r) => /^Bulk [0-4]$/.test(r.title)).map((r) => r.id);
    for (const id of oldest) expect(taskLocs).not.toContain(id);
    expect(taskLocs[0]).toBe(inserted[inserted.length - 1]?.id);
  });
});
