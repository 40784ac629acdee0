import { eq } from "drizzle-orm";
import { z } from "zod";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  calendarAnswerSchema,
  calendarSettingsSchema,
  CALENDAR_FOR_PROVIDERS,
  feedCreatedSchema,
  feedStateSchema,
  feedTokenParamsSchema,
  slotsAnswerSchema,
  slotsQuerySchema,
  stateTimeZone,
  upcomingAnswerSchema,
} from "../../../shared/calendar.js";
import { uuidParamSchema } from "../../../shared/common.js";
import { freeSlots, providerCalendarOf } from "../../db/calendar.js";
import type { Db } from "../../db/client.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { errorResponses, forbidden, namedFieldError, notFound } from "../../http-errors.js";
import { requireUser } from "../../plugins/auth.js";
import { isPartyOrAdmin, viewerOf } from "../../policy.js";
import { calendarText, taskEvent } from "../../task-time.js";
import {
  databaseKnowsZone,
  datedTasksOf,
  deleteFeed,
  findTaskRow,
  feedOf,
  feedOwner,
  readCalendar,
  resetFeed,
  upcomingItem,
  writeCalendar,
} from "./repository.js";
import { registerCalendarActions } from "./actions.js";
import { sendDueReminders } from "./reminders.js";

// Time and turning up (docs/product.md, "Time and turning up"; docs/decisions/074-time-and-turning-up.md):
// a provider's calendar and its free slots, what a person has coming and its private iCalendar
// feed, a task's invitation; the reminders (their actions and the task table's calendar.* and
// no_show.record are actions.ts's).
// Rescheduling, "on my way" and the no-show are rows of the task table, with the tasks feature's routes.

const errors = errorResponses(400, 401, 403);

/** Whether the person is an approved provider: only they keep a calendar. */
async function approvedProvider(db: Db, userId: string): Promise<{ state: string } | null> {
  const [row] = await db.select({ status: providerProfiles.verificationStatus, state: providerProfiles.state }).from(providerProfiles).where(eq(providerProfiles.userId, userId));
  return row?.status === "approved" ? { state: row.state } : null;
}

const calendarRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  registerCalendarActions(ctx);
  ctx.scheduler.register("calendar:reminders", () => sendDueReminders(ctx));

  app.get(
    "/api/calendar",
    {
      config: { auth: "user" },
      schema: { tags: ["calendar"], operationId: "getCalendar", summary: "Returns the signed-in provider's calendar settings", response: { 200: calendarAnswerSchema, ...errors } },
    },
    async (request) => {
      const user = requireUser(request);
      const provider = await approvedProvider(ctx.db, user.id);
      if (!provider) throw forbidden(CALENDAR_FOR_PROVIDERS);
      return readCalendar(ctx.db, user.id, stateTimeZone(provider.state));
    },
  );

  app.put(
    "/api/calendar",
    {
      config: { auth: "user" },
      schema: {
        tags: ["calendar"],
        operationId: "setCalendar",
        summary: "Sets the signed-in provider's weekly hours, days off, notice, tasks a day and instant booking",
        body: calendarSettingsSchema,
        response: { 200: calendarAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const provider = await approvedProvider(ctx.db, user.id);
      if (!provider) throw forbidden(CALENDAR_FOR_PROVIDERS);
      if (!(await databaseKnowsZone(ctx.db, request.body.timeZone))) throw namedFieldError("timeZone", "Choose your time zone from the list, such as America/New_York");
      await writeCalendar(ctx.db, user.id, request.body, ctx.now());
      return readCalendar(ctx.db, user.id, null);
    },
  );

  app.get(
    "/api/providers/:id/slots",
    {
      config: { auth: "user" },
      schema: {
        tags: ["calendar"],
        operationId: "listProviderSlots",
        summary: "Lists a provider's free slots of the given length over the next two weeks",
        params: uuidParamSchema,
        querystring: slotsQuerySchema,
        response: { 200: slotsAnswerSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!(await approvedProvider(ctx.db, id))) throw notFound("This provider does not exist or is not taking tasks.");
      const calendar = await providerCalendarOf(ctx.db, id);
      const { durationMinutes } = request.query;
      const slots = calendar ? await freeSlots(ctx.db, id, durationMinutes, ctx.now()) : [];
      return {
        providerId: id,
        timeZone: calendar?.timeZone ?? null,
        durationMinutes,
        instantBooking: calendar?.instantBooking ?? false,
        slots: slots.map((s) => ({ startsAt: s.startsAt.toISOString(), endsAt: s.endsAt.toISOString() })),
      };
    },
  );

  app.get(
    "/api/calendar/upcoming",
    {
      config: { auth: "user" },
      schema: { tags: ["calendar"], operationId: "listUpcomingTasks", summary: "Lists the signed-in person's dated tasks, as poster or provider", response: { 200: upcomingAnswerSchema, ...errorResponses(401) } },
    },
    async (request) => {
      const user = requireUser(request);
      const items = (await datedTasksOf(ctx.db, user.id, ctx.now())).flatMap((task) => upcomingItem(task, user.id) ?? []);
      return { items };
    },
  );

  app.get(
    "/api/calendar/feed",
    {
      config: { auth: "user" },
      schema: { tags: ["calendar"], operationId: "getCalendarFeed", summary: "Says whether the signed-in person has a calendar feed address", response: { 200: feedStateSchema, ...errorResponses(401) } },
    },
    async (request) => {
      const feed = await feedOf(ctx.db, requireUser(request).id);
      return { feed: feed ? { createdAt: feed.createdAt.toISOString() } : null };
    },
  );

  app.post(
    "/api/calendar/feed",
    {
      config: { auth: "user" },
      schema: {
        tags: ["calendar"],
        operationId: "resetCalendarFeed",
        summary: "Makes a new secret calendar feed address; an earlier one stops working",
        response: { 201: feedCreatedSchema, ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      const now = ctx.now();
      const token = await resetFeed(ctx.db, requireUser(request).id, now);
      return reply.code(201).send({ url: `${ctx.env.PUBLIC_URL}/api/calendar/feeds/${token}/errandly.ics`, createdAt: now.toISOString() });
    },
  );

  app.delete(
    "/api/calendar/feed",
    {
      config: { auth: "user" },
      schema: { tags: ["calendar"], operationId: "deleteCalendarFeed", summary: "Turns the calendar feed off: its address stops working", response: { 200: feedStateSchema, ...errorResponses(401) } },
    },
    async (request) => {
      await deleteFeed(ctx.db, requireUser(request).id);
      return { feed: null };
    },
  );

  // The feed itself: whoever holds the address reads it, as calendar apps do (no session); a token
  // never made or since reset does not exist.
  app.get(
    "/api/calendar/feeds/:token/errandly.ics",
    {
      config: { auth: "public" },
      schema: {
        tags: ["calendar"],
        operationId: "readCalendarFeed",
        summary: "The person's tasks as an iCalendar feed, at its secret address",
        params: feedTokenParamsSchema,
        response: { 200: z.string().describe("text/calendar"), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const owner = await feedOwner(ctx.db, request.params.token);
      if (!owner) throw notFound("This calendar address does not exist. Make a new one in your calendar settings.");
      const now = ctx.now();
      const events = (await datedTasksOf(ctx.db, owner, now)).flatMap((task) => taskEvent(task, task.userId === owner ? "poster" : "provider", ctx.env.PUBLIC_URL, now) ?? []);
      return reply.type("text/calendar; charset=utf-8").header("cache-control", "private, no-store").send(calendarText("Errandly", events));
    },
  );

  app.get(
    "/api/tasks/:id/calendar.ics",
    {
      config: { auth: "user" },
      schema: {
        tags: ["calendar"],
        operationId: "downloadTaskInvitation",
        summary: "Downloads a dated task as an .ics invitation (its poster, its provider and admins)",
        params: uuidParamSchema,
        response: { 200: z.string().describe("text/calendar"), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const task = await findTaskRow(ctx.db, request.params.id);
      if (!task || !isPartyOrAdmin(viewerOf(user), [task.userId, task.providerId])) throw notFound("Task not found");
      const event = taskEvent(task, user.id === task.providerId ? "provider" : "poster", ctx.env.PUBLIC_URL, ctx.now());
      if (!event) throw notFound("This task has no date, so there is nothing to add to a calendar.");
      return reply
        .type("text/calendar; charset=utf-8")
        .header("content-disposition", `attachment; filename="errandly-task-${task.id}.ics"`)
        .header("cache-control", "private, no-store")
        .send(calendarText("Errandly task", [event]));
    },
  );
};

export default calendarRoutes;
