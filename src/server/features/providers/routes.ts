import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

// Placeholder until the providers feature lands.
const providersRoutes: FastifyPluginAsyncZod = async () => {};

export default providersRoutes;
