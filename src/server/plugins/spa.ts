import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import fp from "fastify-plugin";
import { WEB_DIST_DIR } from "../paths.js";

// The built SPA: hashed assets are cached for a year, index.html never; unknown /api paths are a
// JSON 404 and every other unknown path gets index.html so the client router shows the page
// (or its 404 page).

export default fp(
  async (app) => {
    const webDist = app.ctx.env.WEB_DIST_DIR ?? WEB_DIST_DIR;
    const indexPath = join(webDist, "index.html");
    const hasBuild = existsSync(indexPath);
    if (hasBuild) {
      await app.register(fastifyStatic, {
        root: webDist,
        wildcard: false,
        index: false,
        // The build writes .br and .gz beside every asset (vite.config.ts): served by Accept-Encoding
        // with Vary, so no CPU goes on compressing the same bytes per request.
        preCompressed: true,
        setHeaders(reply, path) {
          reply.header("cache-control", path.includes("/assets/") ? "public, max-age=31536000, immutable" : "no-cache");
        },
      });
    }
    const indexHtml = hasBuild ? readFileSync(indexPath, "utf8") : null;

    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split("?")[0] ?? "";
      // HEAD answers like GET (monitors and link checkers use it); Fastify sends no body for it.
      if (path.startsWith("/api/") || path === "/api" || (request.method !== "GET" && request.method !== "HEAD")) {
        return reply.code(404).send({ message: `Not found: ${request.method} ${path}` });
      }
      if (!indexHtml) {
        return reply.code(404).type("text/plain").send("The web app is not built. Run `npm run build`.");
      }
      return reply.code(200).type("text/html").header("cache-control", "no-cache").send(indexHtml);
    });
  },
  { name: "spa" },
);
