import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

// Placeholder until the felix feature lands.
const felixRoutes: FastifyPluginAsyncZod = async () => {};

export default felixRoutes;
