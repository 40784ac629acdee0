import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { mapConfigSchema } from "../../../shared/map.js";

// The map's tile source for the web (docs/decisions/031-job-board-map.md): public, like the job
// board it serves; the operator sets it with MAP_TILE_URL and MAP_TILE_ATTRIBUTION.

const mapRoutes: FastifyPluginAsyncZod = async (app) => {
  const { env } = app.ctx;
  app.get(
    "/api/map/config",
    { config: { auth: "public" }, schema: { tags: ["map"], operationId: "getMapConfig", summary: "Returns the map tile source and its attribution", response: { 200: mapConfigSchema } } },
    async () => ({ tileUrl: env.MAP_TILE_URL, attribution: env.MAP_TILE_ATTRIBUTION }),
  );
};

export default mapRoutes;
