import { describe, expect, it } from "vitest";
import { canonicalPath, fullTitle, indexedStaticPaths, matchRoute, prerenderedPaths, privatePathPrefixes, ROUTE_HEADS } from "./page-head.js";

// The route table is the one place page titles live (docs/decisions/028-head-tags-from-the-server.md).
// That it names exactly the router's routes is checked beside the router (src/web/app/router-heads.test.ts).

describe("ROUTE_HEADS", () => {
  it("keeps descriptions within what search results show (about 160 characters)", () => {
    for (const route of ROUTE_HEADS) expect(route.description.length, route.pattern).toBeLessThanOrEqual(160);
  });

  // Once e2e/seo-head.e2e.ts, on the 14 public pages' HTML: the server writes this table's
  // description into each page's head (src/server/features/seo/seo.test.ts checks that per page).
  it("gives every indexed page a description of its own, longer than 50 characters", () => {
    const paths = indexedStaticPaths();
    expect(paths.length).toBeGreaterThanOrEqual(14);
    const descriptions = paths.map((path) => matchRoute(path).route.description);
    for (const [i, description] of descriptions.entries()) expect(description.length, paths[i]).toBeGreaterThan(50);
    expect(new Set(descriptions).size).toBe(paths.length);
  });
});

// Once e2e/prerendered-pages.e2e.ts: which pages the build renders to HTML (decision 033). That
// each of them shows its content with JavaScript off and hydrates stays a browser journey.
describe("prerenderedPaths", () => {
  it("covers the public information pages, and not the pages that list data or need a person", () => {
    const paths = prerenderedPaths();
    expect(paths).toEqual(expect.arrayContaining(["/", "/how-it-works", "/pricing", "/faq", "/privacy", "/terms", "/contact"]));
    for (const path of ["/jobs", "/job-board", "/providers", "/task/:id", "/users/:id", "/dashboard", "/sign-in"]) expect(paths).not.toContain(path);
  });
});

describe("matchRoute", () => {
  it.each([
    ["/", "/"],
    ["/pricing", "/pricing"],
    ["/pricing/", "/pricing"],
    ["/task/abc", "/task/:id"],
    ["/tasks/abc", "/tasks/:id"],
    ["/users/abc", "/users/:id"],
    ["/settings", "/settings/:tab?"],
    ["/settings/security", "/settings/:tab?"],
    ["/admin/inbox", "/admin/inbox"],
    ["/task", "*"],
    ["/task/a/b", "*"],
    ["/pricingx", "*"],
  ])("%s is %s", (path, pattern) => {
    expect(matchRoute(path).route.pattern).toBe(pattern);
  });

  it("hands over the id, and the canonical path of a task", () => {
    const match = matchRoute("/tasks/a%20b");
    expect(match.params).toEqual({ id: "a b" });
    expect(canonicalPath(match, "/tasks/a%20b")).toBe("/task/a b");
    expect(canonicalPath(matchRoute("/jobs"), "/jobs")).toBe("/job-board");
  });
});

describe("fullTitle", () => {
  it("adds the site name, or is the home title", () => {
    expect(fullTitle("Pricing")).toBe("Pricing | Errandly");
    expect(fullTitle(null)).toBe("Errandly: local errands and tasks, done by verified providers");
  });
});

describe("robots and sitemap lists", () => {
  it("no private prefix shuts out a public page (robots.txt rules are prefixes)", () => {
    const prefixes = privatePathPrefixes();
    expect(prefixes).toContain("/admin");
    expect(prefixes).toContain("/provider/");
    for (const route of ROUTE_HEADS.filter((r) => r.index)) {
      const path = route.pattern.replace(/:\w+\??/g, "x");
      expect(prefixes.filter((prefix) => path.startsWith(prefix)), path).toEqual([]);
    }
  });

  it("the sitemap's static pages are the indexable ones, each once", () => {
    const paths = indexedStaticPaths();
    expect(paths).toContain("/");
    expect(paths).toContain("/job-board");
    expect(paths).not.toContain("/jobs");
    expect(paths).not.toContain("/dashboard");
    expect(new Set(paths).size).toBe(paths.length);
  });
});
