import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

// Placeholder until the notifications feature lands.
const notificationsRoutes: FastifyPluginAsyncZod = async () => {};

export default notificationsRoutes;
