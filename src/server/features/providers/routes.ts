import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { applicationBodySchema, profilePatchSchema, providerProfileSchema } from "../../../shared/providers.js";
import { createStorage } from "../../adapters/storage/create-storage.js";
import { requireUser } from "../../plugins/auth.js";
import { rateLimit } from "../../plugins/rate-limit.js";
import adminRoutes from "./admin-routes.js";
import backgroundCheckRoutes from "./background-check-routes.js";
import directoryRoutes from "./directory-routes.js";
import objectsRoutes from "./objects-routes.js";
import { findProfile } from "./repository.js";
import { submitApplication, updateProfile } from "./service.js";
import { deleteAbandonedUploads, deleteRetiredIdDocuments, deleteUnattachedUploads } from "./uploads.js";
import { errorResponses } from "../../http-errors.js";

// Providers: applications and profiles here; uploads (objects-routes.ts), admin review
// (admin-routes.ts) and the public directory (directory-routes.ts) in their own plugins.

const providersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const storage = await createStorage(ctx.env);
  const errors = errorResponses(400, 401, 404, 409);

  app.post(
    "/api/provider/apply",
    {
      config: { auth: "user", verifiedEmail: true },
      preHandler: rateLimit(ctx.db, ctx.now, { name: "provider-apply", max: 10, windowMs: 3_600_000, key: (r) => r.user?.id ?? r.ip }),
      schema: {
        tags: ["providers"],
        operationId: "applyAsProvider",
        summary: "Applies to work as a provider",
        body: applicationBodySchema,
        response: { 201: providerProfileSchema, ...errorResponses(429), ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await submitApplication(ctx, requireUser(request).id, request.body)),
  );

  app.get(
    "/api/provider/profile",
    {
      config: { auth: "user" },
      // null, not 404, for someone who never applied: every signed-in page asks (the verification
      // alert), and a 404 there is noise in the console and the logs, not an error.
      schema: { tags: ["providers"], operationId: "getProviderProfile", summary: "Returns the signed-in provider's profile", response: { 200: providerProfileSchema.nullable(), ...errors } },
    },
    async (request) => findProfile(ctx.db, requireUser(request).id),
  );

  app.patch(
    "/api/provider/profile",
    {
      config: { auth: "user" },
      schema: { tags: ["providers"], operationId: "updateProviderProfile", summary: "Changes the signed-in provider's profile", body: profilePatchSchema, response: { 200: providerProfileSchema, ...errors } },
    },
    async (request) => updateProfile(ctx, requireUser(request).id, request.body),
  );

  ctx.scheduler.register("uploads:cleanup", () => deleteAbandonedUploads(ctx, storage));
  ctx.scheduler.register("uploads:id-document-retention", () => deleteRetiredIdDocuments(ctx, storage));
  ctx.scheduler.register("uploads:unattached", () => deleteUnattachedUploads(ctx, storage));

  await app.register(objectsRoutes, { storage });
  await app.register(adminRoutes);
  await app.register(backgroundCheckRoutes);
  await app.register(directoryRoutes);
};

export default providersRoutes;
