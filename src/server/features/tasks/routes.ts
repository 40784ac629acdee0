import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

// Placeholder until the tasks feature lands.
const tasksRoutes: FastifyPluginAsyncZod = async () => {};

export default tasksRoutes;
