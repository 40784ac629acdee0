import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { createReviewBodySchema, reviewSchema, taskReviewsSchema, userReviewsSchema } from "../../../shared/reviews.js";
import { requireUser } from "../../plugins/auth.js";
import { viewerOf } from "../../policy.js";
import { createReview, revealDueReviews, reviewsForTask, reviewsOfUser } from "./repository.js";
import { errorResponses } from "../../http-errors.js";

const errors = errorResponses(400, 401, 403, 404);

const reviewsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  // Blind reviews whose window has passed become visible within one run of the jobs (docs/product.md#reviews).
  ctx.scheduler.register("reviews:reveal", () => revealDueReviews(ctx, ctx.now()));

  app.post(
    "/api/reviews",
    {
      config: { auth: "user" },
      schema: { tags: ["reviews"], operationId: "createReview", summary: "Reviews the other party of a completed task", body: createReviewBodySchema, response: { 201: reviewSchema, ...errors, ...errorResponses(409) } },
    },
    async (request, reply) => {
      const review = await createReview(ctx, { ...request.body, reviewerId: requireUser(request).id, now: ctx.now() });
      return reply.code(201).send(review);
    },
  );

  app.get(
    "/api/reviews/task/:taskId",
    {
      config: { auth: "user" },
      schema: {
        tags: ["reviews"],
        operationId: "listTaskReviews",
        summary: "Lists the reviews of a task",
        params: z.object({ taskId: z.uuid({ error: "taskId must be a UUID" }) }),
        response: { 200: taskReviewsSchema, ...errors },
      },
    },
    async (request) => reviewsForTask(ctx.db, request.params.taskId, viewerOf(requireUser(request))),
  );

  app.get(
    "/api/reviews/user/:userId",
    {
      config: { auth: "public" },
      schema: {
        tags: ["reviews"],
        operationId: "listUserReviews",
        summary: "Lists the visible reviews of a person",
        params: z.object({ userId: z.uuid({ error: "userId must be a UUID" }) }),
        response: { 200: userReviewsSchema, ...errorResponses(400) },
      },
    },
    async (request) => reviewsOfUser(ctx.db, request.params.userId),
  );
};

export default reviewsRoutes;
