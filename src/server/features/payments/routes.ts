import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

// Placeholder until the payments feature lands.
const paymentsRoutes: FastifyPluginAsyncZod = async () => {};

export default paymentsRoutes;
