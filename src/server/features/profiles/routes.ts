import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { uuidParamSchema } from "../../../shared/common.js";
import { userProfileSchema } from "../../../shared/profiles.js";
import { getUserProfile } from "./repository.js";
import { errorResponses } from "../../http-errors.js";

// Public profiles (docs/product.md, "People you can see"): anyone may read one, signed in or not.
// The response schema names every field that may leave; nothing else can.

const profilesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.get(
    "/api/users/:id/profile",
    {
      config: { auth: "public" },
      schema: {
        tags: ["profiles"],
        operationId: "getPublicProfile",
        summary: "Returns a person's public profile",
        params: uuidParamSchema,
        response: { 200: userProfileSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => getUserProfile(ctx.db, request.params.id),
  );
};

export default profilesRoutes;
