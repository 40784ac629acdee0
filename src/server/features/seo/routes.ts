import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { indexedStaticPaths, privatePathPrefixes } from "../../../shared/page-head.js";
import { escapeHtml } from "./head.js";
import { listSitemapTasks } from "./repository.js";

// robots.txt and sitemap.xml for search engines (issue 17; docs/decisions/028-head-tags-from-the-server.md).
// Both are built per request from PUBLIC_URL and the route table, so they never disagree with
// the pages' own robots tags, and both may be cached by anyone: they hold only public addresses.

/**
 * The sitemap protocol allows 50,000 addresses a file; the newest open tasks are the ones worth
 * crawling, and a bound keeps the query and the answer small however many tasks there are.
 */
export const SITEMAP_TASK_LIMIT = 5_000;

const seoRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const origin = new URL(ctx.env.PUBLIC_URL).origin;

  app.get("/robots.txt", { config: { auth: "public" }, schema: { tags: ["site"], operationId: "getRobots", summary: "Returns the rules for crawlers" } }, async (_request, reply) => {
    const lines = [
      "User-agent: *",
      "Allow: /",
      "Disallow: /api/",
      ...privatePathPrefixes().map((prefix) => `Disallow: ${prefix}`),
      "",
      `Sitemap: ${origin}/sitemap.xml`,
      "",
    ];
    return reply.type("text/plain; charset=utf-8").header("cache-control", "public, max-age=86400").send(lines.join("\n"));
  });

  app.get("/sitemap.xml", { config: { auth: "public" }, schema: { tags: ["site"], operationId: "getSitemap", summary: "Returns the public pages for search engines" } }, async (_request, reply) => {
    const tasks = await listSitemapTasks(ctx.db, SITEMAP_TASK_LIMIT);
    const url = (path: string, lastmod?: Date) =>
      `  <url><loc>${escapeHtml(`${origin}${path}`)}</loc>${lastmod ? `<lastmod>${lastmod.toISOString()}</lastmod>` : ""}</url>`;
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ...indexedStaticPaths().map((path) => url(path)),
      ...tasks.map((task) => url(`/task/${task.id}`, task.updatedAt)),
      "</urlset>",
      "",
    ];
    // An hour: new tasks reach search engines a little later, and a crawler re-reading it costs one query.
    return reply.type("application/xml; charset=utf-8").header("cache-control", "public, max-age=3600").send(xml.join("\n"));
  });
};

export default seoRoutes;
