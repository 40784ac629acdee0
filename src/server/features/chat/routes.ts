import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

// Placeholder until the chat feature lands.
const chatRoutes: FastifyPluginAsyncZod = async () => {};

export default chatRoutes;
