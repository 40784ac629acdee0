import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { GEOCODE_LIMIT } from "../../../shared/constants.js";
import { geocodeQuerySchema, geocodeResultsSchema } from "../../../shared/tasks.js";
import { errorResponses, HttpError } from "../../http-errors.js";
import { rateLimit } from "../../plugins/rate-limit.js";

// Address autocomplete (docs/product.md): at least 3 characters, 5 US results. Public like the
// job board, limited per IP because the upstream service allows one request per second in all.

const GEOCODE_PER_MINUTE = 60;

const geocodeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const { geocoder } = ctx;

  app.get(
    "/api/geocode",
    {
      config: { auth: "public" },
      preHandler: rateLimit(ctx.db, ctx.now, { name: "geocode:ip", max: GEOCODE_PER_MINUTE, windowMs: 60_000, key: (r) => r.ip }),
      schema: {
        tags: ["tasks"],
        operationId: "geocode",
        summary: "Finds the place of a ZIP code or town",
        querystring: geocodeQuerySchema,
        response: { 200: geocodeResultsSchema, ...errorResponses(400, 429, 502) },
      },
    },
    async (request) => {
      try {
        return await geocoder.search(request.query.q, GEOCODE_LIMIT);
      } catch (err) {
        request.log.warn({ err }, "address search failed");
        throw new HttpError(502, "Address search is unavailable right now. Please type the address.");
      }
    },
  );
};

export default geocodeRoutes;
