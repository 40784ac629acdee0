import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

// Placeholder until the reviews feature lands.
const reviewsRoutes: FastifyPluginAsyncZod = async () => {};

export default reviewsRoutes;
