import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { providersQuerySchema, publicProviderSchema } from "../../../shared/providers.js";
import { listPublicProviders } from "./repository.js";
import { errorResponses } from "../../http-errors.js";

const directoryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/providers",
    {
      config: { auth: "public" },
      schema: { tags: ["providers"], operationId: "listProviders", summary: "Lists the providers of the public directory", querystring: providersQuerySchema, response: { 200: z.array(publicProviderSchema), ...errorResponses(400) } },
    },
    async (request) => listPublicProviders(app.ctx.db, request.query, request.user?.id ?? null),
  );
};

export default directoryRoutes;
