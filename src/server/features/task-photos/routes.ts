import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { uuidParamSchema } from "../../../shared/common.js";
import { addTaskPhotoBodySchema, taskPhotoImageParamsSchema, taskPhotoParamsSchema, taskPhotosResponseSchema } from "../../../shared/task-photos.js";
import { requireUser } from "../../plugins/auth.js";
import { rateLimit } from "../../plugins/rate-limit.js";
import { addTaskPhoto, readTaskPhotoImage, removeTaskPhoto, type TaskPhotoDeps } from "./service.js";
import { errorResponses } from "../../http-errors.js";

// Task photos (docs/product.md#task-photos, docs/decisions/030-task-photos.md).

const errors = errorResponses(400, 401, 403, 404, 409);

const taskPhotosRoutes: FastifyPluginAsyncZod<TaskPhotoDeps> = async (app, deps) => {
  const { ctx } = app;

  app.post(
    "/api/tasks/:id/photos",
    {
      config: { auth: "user" },
      // Each addition decodes and resizes an image: bounded per person like uploads are.
      preHandler: rateLimit(ctx.db, ctx.now, { name: "task-photo-add", max: 40, windowMs: 900_000, key: (r) => requireUser(r).id }),
      schema: {
        tags: ["tasks"],
        operationId: "addTaskPhoto",
        summary: "Adds an uploaded photo to a task",
        params: uuidParamSchema,
        body: addTaskPhotoBodySchema,
        response: { 200: taskPhotosResponseSchema, ...errorResponses(410, 413, 415, 429), ...errors },
      },
    },
    async (request) => addTaskPhoto(ctx, deps, requireUser(request).id, request.params.id, request.body),
  );

  app.delete(
    "/api/tasks/:id/photos/:photoId",
    {
      config: { auth: "user" },
      schema: { tags: ["tasks"], operationId: "removeTaskPhoto", summary: "Removes a photo from a task", params: taskPhotoParamsSchema, response: { 200: taskPhotosResponseSchema, ...errors } },
    },
    async (request) => removeTaskPhoto(ctx, deps, requireUser(request).id, request.params.id, request.params.photoId),
  );

  app.get(
    "/api/task-photos/:photoId/:size",
    {
      config: { auth: "public" },
      schema: { tags: ["tasks"], operationId: "getTaskPhoto", summary: "Returns a task photo at one of its sizes", params: taskPhotoImageParamsSchema },
    },
    async (request, reply) => {
      const body = await readTaskPhotoImage(ctx, deps.storage, request.params.photoId, request.params.size);
      return (
        reply
          .header("content-type", "image/webp")
          // A photo's images never change (a new photo gets new ids), so browsers and CDNs keep them.
          .header("cache-control", "public, max-age=31536000, immutable")
          .header("x-content-type-options", "nosniff")
          .header("content-security-policy", "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; sandbox")
          .send(body)
      );
    },
  );
};

export default taskPhotosRoutes;
