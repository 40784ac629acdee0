import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { publicProviderSchema } from "../../../shared/providers.js";
import { listPublicProviders } from "./repository.js";

const directoryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/providers",
    { config: { auth: "public" }, schema: { tags: ["providers"], response: { 200: z.array(publicProviderSchema) } } },
    async () => listPublicProviders(app.ctx.db, app.ctx.now()),
  );
};

export default directoryRoutes;
