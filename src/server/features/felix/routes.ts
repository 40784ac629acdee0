import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { felixRequestSchema, felixResponseSchema } from "../../../shared/felix.js";
import { createPhraser } from "../../adapters/felix-phrasing/create-phraser.js";
import { createRouter } from "../../adapters/routing/create-router.js";
import { requireUser } from "../../plugins/auth.js";
import { isAdminSession } from "../../policy.js";
import { rateLimit } from "../../plugins/rate-limit.js";
import { askFelix, type FelixServiceContext } from "./service.js";
import { errorResponses } from "../../http-errors.js";

// POST /api/ask-felix. Signed-in users only: posters ask from the Post a Task dialog
// and providers from job cards, both after signing in; a public route would let anyone spend
// our geocoding and language-model budget. 20 questions a minute per user is far above a
// person typing and stops a script (docs/decisions/012-felix-conversation-and-language-model.md).

export const FELIX_RATE_LIMIT = { max: 20, windowMs: 60_000 };

const felixRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const felix: FelixServiceContext = {
    ...ctx,
    router: createRouter({ url: ctx.env.ROUTING_URL, log: ctx.log }),
    phraser: createPhraser({
      url: ctx.env.FELIX_LLM_URL,
      model: ctx.env.FELIX_LLM_MODEL,
      apiKey: ctx.env.FELIX_LLM_API_KEY,
      timeoutMs: ctx.env.FELIX_LLM_TIMEOUT_MS,
      log: ctx.log,
    }),
  };

  app.post(
    "/api/ask-felix",
    {
      config: { auth: "user" },
      preHandler: rateLimit(ctx.db, ctx.now, { name: "felix:user", ...FELIX_RATE_LIMIT, key: (r) => requireUser(r).id }),
      schema: {
        tags: ["felix"],
        operationId: "askFelix",
        summary: "Asks Felix for a budget or a task description",
        body: felixRequestSchema,
        response: { 200: felixResponseSchema, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return askFelix(felix, { id: user.id, isAdmin: isAdminSession(user) }, request.body);
    },
  );
};

export default felixRoutes;
