import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { pageQuerySchema } from "../../../shared/common.js";
import {
  appointmentBodySchema,
  appointmentDateProblem,
  appointmentPageSchema,
  contactBodySchema,
  contactMessagePageSchema,
  createdResponseSchema,
} from "../../../shared/site.js";
import { errorResponses, namedFieldError } from "../../http-errors.js";
import { rateLimit } from "../../plugins/rate-limit.js";
import {
  deleteExpiredSiteRecords,
  insertAppointment,
  insertContactMessage,
  listAppointments,
  listContactMessages,
} from "./repository.js";

// The public contact form and office-appointment requests, and the admin inbox that reads them
// (docs/decisions/013-contact-and-appointments.md).

/** Per IP: enough for a person who retries, too few for a script filling the inbox. */
const SUBMIT_LIMIT = { max: 5, windowMs: 10 * 60_000 } as const;

const siteRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const perIp = (name: string) => rateLimit(ctx.db, ctx.now, { name, ...SUBMIT_LIMIT, key: (r) => r.ip });
  const writeErrors = errorResponses(400, 429);
  const adminErrors = errorResponses(400, 401, 403);

  app.post(
    "/api/contact",
    {
      config: { auth: "public" },
      preHandler: perIp("contact:ip"),
      schema: { tags: ["site"], operationId: "sendContactMessage", summary: "Sends a message to the Errandly team", body: contactBodySchema, response: { 201: createdResponseSchema, ...writeErrors } },
    },
    async (request, reply) => {
      const id = await insertContactMessage(ctx.db, request.body, ctx.now());
      return reply.code(201).send({ ok: true as const, id });
    },
  );

  app.post(
    "/api/appointments",
    {
      config: { auth: "public" },
      preHandler: perIp("appointment:ip"),
      schema: { tags: ["site"], operationId: "requestAppointment", summary: "Asks the Errandly team for an appointment", body: appointmentBodySchema, response: { 201: createdResponseSchema, ...writeErrors } },
    },
    async (request, reply) => {
      const problem = appointmentDateProblem(new Date(request.body.appointmentDate), ctx.now());
      if (problem) throw namedFieldError("appointmentDate", problem);
      const id = await insertAppointment(ctx.db, request.body, ctx.now());
      return reply.code(201).send({ ok: true as const, id });
    },
  );

  app.get(
    "/api/admin/contact-messages",
    {
      config: { auth: "admin" },
      schema: { tags: ["site"], operationId: "listContactMessages", summary: "Lists the messages sent to the team", querystring: pageQuerySchema, response: { 200: contactMessagePageSchema, ...adminErrors } },
    },
    async (request) => listContactMessages(ctx.db, request.query),
  );

  app.get(
    "/api/admin/appointments",
    {
      config: { auth: "admin" },
      schema: { tags: ["site"], operationId: "listAppointments", summary: "Lists the appointment requests", querystring: pageQuerySchema, response: { 200: appointmentPageSchema, ...adminErrors } },
    },
    async (request) => listAppointments(ctx.db, request.query),
  );

  ctx.scheduler.register("site:retention", () => deleteExpiredSiteRecords(ctx.db, ctx.now()));
};

export default siteRoutes;
