import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

// Placeholder until the site feature lands.
const siteRoutes: FastifyPluginAsyncZod = async () => {};

export default siteRoutes;
