import cookie from "@fastify/cookie";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import websocket from "@fastify/websocket";
import Fastify, { type FastifyInstance } from "fastify";
import {
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import { SERVICE_RESTART_CLOSE } from "../shared/server-frames.js";
import { createGeocoder } from "./adapters/geocoding/create-geocoder.js";
import { createMailer } from "./adapters/mail/create-mailer.js";
import { createPushSender } from "./adapters/push/create-push-sender.js";
import type { Env } from "./config/env.js";
import type { AppContext } from "./context.js";
import type { Database } from "./db/client.js";
import { responseSerializerCompiler } from "./response-serializer.js";
import accountRoutes from "./features/account/routes.js";
import authRoutes from "./features/auth/routes.js";
import { assertPasswordAccepted } from "./features/auth/password-policy.js";
import { hashPassword, verifyPassword } from "./features/auth/passwords.js";
import { transitionTask } from "./features/tasks/service.js";
import { declineRow, posterCancelRow } from "./features/tasks/requests.js";
import { createStorage } from "./adapters/storage/create-storage.js";
import calendarRoutes from "./features/calendar/routes.js";
import chatRoutes from "./features/chat/routes.js";
import felixRoutes from "./features/felix/routes.js";
import jobAlertsRoutes from "./features/job-alerts/routes.js";
import offersRoutes from "./features/offers/routes.js";
import questionsRoutes from "./features/questions/routes.js";
import { withTaskQuestions } from "./features/questions/page-data.js";
import mapRoutes from "./features/map/routes.js";
import moderationRoutes from "./features/moderation/routes.js";
import notificationsRoutes from "./features/notifications/routes.js";
import paymentsRoutes from "./features/payments/routes.js";
import profilesRoutes from "./features/profiles/routes.js";
import pushRoutes from "./features/push/routes.js";
import providersRoutes from "./features/providers/routes.js";
import reviewsRoutes from "./features/reviews/routes.js";
import { renderHeadTags, resolvePageHead } from "./features/seo/head.js";
import seoRoutes from "./features/seo/routes.js";
import siteRoutes from "./features/site/routes.js";
import { pageAnswer } from "./features/tasks/page-data.js";
import tasksRoutes from "./features/tasks/routes.js";
import taskPhotosRoutes from "./features/task-photos/routes.js";
import { completeUpload } from "./features/providers/uploads.js";
import { deleteExpiredChallenges } from "./features/auth/factors.js";
import { deleteOldSecurityEvents, recordSecurityEvent } from "./features/auth/security-log.js";
import { deleteExpiredSessions } from "./features/auth/sessions.js";
import { promoteAdminEmails } from "./features/auth/repository.js";
import admissionPlugin from "./plugins/admission.js";
import authPlugin from "./plugins/auth.js";
import { clientErrorHandler } from "./plugins/client-errors.js";
import connectionCapPlugin from "./plugins/connection-cap.js";
import metricsPlugin from "./plugins/metrics.js";
import { Metrics } from "./metrics.js";
import errorsPlugin from "./plugins/errors.js";
import healthPlugin from "./plugins/health.js";
import { deleteStaleRateLimits } from "./plugins/rate-limit.js";
import securityPlugin from "./plugins/security.js";
import spaPlugin from "./plugins/spa.js";
import { Scheduler } from "./scheduler.js";
import { loadSecretBox } from "./secrets/secret-box.js";
import { AfterAnswer } from "./after-answer.js";
import { assertActionsHandled, moneyActionRegistry, taskActionRegistry, taskEventRegistry } from "./transition-actions.js";
import { MONEY_ACTIONS_NAMED } from "../shared/money-lifecycle.js";
import { TASK_EVENTS } from "../shared/task-events.js";
import { TASK_PROCESS } from "../shared/task-lifecycle.js";
import { registerTaskUpdates } from "./task-updates.js";

export interface BuildOptions {
  env: Env;
  database: Database;
  /** The clock; tests pass a controllable one. */
  now?: () => Date;
  /** Run the periodic jobs on a timer (the server does; tests call `app.ctx.scheduler.runAll()`). */
  startScheduler?: boolean;
  logger?: boolean;
}

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { env, database } = options;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: env.LOG_LEVEL,
            redact: ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'],
          },
    bodyLimit: env.BODY_LIMIT_BYTES,
    trustProxy: env.TRUST_PROXY,
    // A request that has not arrived, headers and body, within REQUEST_TIMEOUT_MS, or whose headers
    // have not within HEADERS_TIMEOUT_MS, gets 408 and its connection is closed, whether it waits in
    // the line or is at work (docs/decisions/043-slow-requests-bounded.md, 071-connections-closed-on-time.md).
    // Node's parser knows when each request began and whether it has all arrived; the server looks
    // every connectionsCheckingInterval (30 s unless told), so a connection outlives its deadline by
    // up to that: here a tenth of the header timeout, at most 250 ms.
    requestTimeout: env.REQUEST_TIMEOUT_MS,
    clientErrorHandler,
    http: {
      headersTimeout: env.HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(250, Math.ceil(env.HEADERS_TIMEOUT_MS / 10)),
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ checked: env.NODE_ENV !== "production" }));

  const now = options.now ?? (() => new Date());
  const metrics = new Metrics();
  const ctx: AppContext = {
    env,
    database,
    db: database.db,
    now,
    mailer: await createMailer({
      db: database.db,
      smtpUrl: env.SMTP_URL,
      from: env.MAIL_FROM,
      log: app.log,
      now,
      // A person running the product locally follows the e-mails' links from the log (docs/product.md).
      logLinks: env.NODE_ENV === "development",
    }),
    push: await createPushSender(env, app.log),
    secrets: await loadSecretBox(env),
    geocoder: createGeocoder(env),
    taskActions: taskActionRegistry(TASK_PROCESS.flatMap((step) => step.actions)),
    moneyActions: moneyActionRegistry(MONEY_ACTIONS_NAMED),
    taskEventActions: taskEventRegistry(TASK_EVENTS.flatMap((row) => row.actions)),
    scheduler: new Scheduler(app.log, metrics),
    afterAnswer: new AfterAnswer(app.log),
    log: app.log,
    metrics,
  };
  app.decorate("ctx", ctx);
  // Every task transition and task event is pushed to the people it concerns (docs/decisions/025-live-task-status.md).
  registerTaskUpdates(ctx);

  // Platform: errors, headers and CSRF, cookies, sockets, OpenAPI, who is asking.
  await app.register(errorsPlugin);
  await app.register(securityPlugin);
  await app.register(cookie);
  await app.register(websocket, {
    options: { maxPayload: 16 * 1024 },
    // On shutdown every socket is closed with 1012 (service restart), not the plugin's bare close,
    // so a client knows to reconnect, reaching another instance, and refetch what it missed
    // (docs/decisions/051-pooler-and-topology.md).
    preClose(done) {
      for (const client of this.websocketServer.clients) client.close(SERVICE_RESTART_CLOSE.code, SERVICE_RESTART_CLOSE.reason);
      this.websocketServer.close();
      done();
    },
  });
  await app.register(swagger, {
    openapi: {
      info: {
        title: "Errandly API",
        version: "1.0.0",
        description: "Local errand and task marketplace",
        contact: { name: "Errandly", url: `${env.PUBLIC_URL}/contact` },
      },
      servers: [{ url: env.PUBLIC_URL }],
      // Every route names one of these (`npm test` lints the document with spectral, decision 047).
      tags: [
        { name: "platform", description: "The server's own health" },
        { name: "auth", description: "Accounts, sign-in, sessions, e-mail verification and recovery" },
        { name: "site", description: "Contact, appointments, robots.txt and the sitemap" },
        { name: "tasks", description: "Posting tasks, the job board, task detail, transitions and photos" },
        { name: "map", description: "The job board map's tile source" },
        { name: "providers", description: "Provider applications, profiles, uploads and the directory" },
        { name: "admin", description: "Reviewing providers, photos, the audit log and the outbox" },
        { name: "chat", description: "Messages between the poster and the provider of a task" },
        { name: "notifications", description: "In-app notices and e-mail preferences" },
        { name: "reviews", description: "Blind reviews after a completed task" },
        { name: "felix", description: "Felix the budget assistant" },
        { name: "payments", description: "Escrow, releases, tips, payouts, disputes and the payment webhook" },
        { name: "profiles", description: "Public profiles" },
        { name: "job-alerts", description: "Providers' alerts for new tasks near them" },
        { name: "account", description: "Account settings, sessions, export and deletion" },
        { name: "push", description: "Web Push to people's devices: the server's key and each device's subscription" },
        { name: "moderation", description: "Reports, blocks, and the admins' removals, hidden reviews and suspensions" },
        { name: "offers", description: "Offers on tasks that take them, and accepting one" },
        { name: "questions", description: "Public questions on open tasks and the posters' answers" },
        { name: "calendar", description: "Providers' calendars and free slots, upcoming tasks, calendar feeds and invitations" },
      ],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: "/api/docs" });
  // Requests join the line before the session lookup, so a flood is turned away before it reaches
  // the database (docs/decisions/043-slow-requests-bounded.md).
  if (!env.TRUST_PROXY) await app.register(connectionCapPlugin, { maxPerAddress: env.MAX_CONNECTIONS_PER_ADDRESS });
  await app.register(admissionPlugin, {
    limit: env.MAX_CONCURRENT_REQUESTS,
    limitPerAddress: env.MAX_CONCURRENT_PER_ADDRESS,
    queueLimit: env.REQUEST_QUEUE_LIMIT,
    queuePerAddress: env.REQUEST_QUEUE_PER_ADDRESS,
    // Timed only with metrics on, as the request histogram is: with no METRICS_TOKEN nobody reads
    // it and the hot path pays nothing (docs/decisions/053-metrics-and-backups.md).
    ...(env.METRICS_TOKEN ? { onWaited: (seconds: number) => metrics.admissionWait.observe(seconds) } : {}),
  });
  await app.register(metricsPlugin);
  await app.register(authPlugin);

  // Liveness and readiness, for load balancers (docs/deploy.md).
  await app.register(healthPlugin);

  // Features, each owning its routes under /api.
  await app.register(authRoutes);
  await app.register(siteRoutes);
  await app.register(tasksRoutes);
  await app.register(mapRoutes);
  await app.register(providersRoutes);
  await app.register(chatRoutes);
  await app.register(notificationsRoutes);
  await app.register(reviewsRoutes);
  await app.register(felixRoutes);
  // Dispute photos complete their uploads through the providers' one upload flow, as task photos do (decision 057).
  const storage = await createStorage(env);
  await app.register(paymentsRoutes, {
    storage,
    completeUpload: (ownerId, uploadUrl) => completeUpload(ctx, storage, ownerId, uploadUrl, "dispute_photo", "photoURLs"),
    // Payout details changes go into the person's security log (docs/decisions/050-step-up-and-security-log.md).
    recordSecurityEvent,
  });
  await app.register(profilesRoutes);
  await app.register(jobAlertsRoutes);
  await app.register(pushRoutes);
  await app.register(offersRoutes);
  await app.register(questionsRoutes);
  await app.register(calendarRoutes);
  // The account feature gets what it needs of others from here, the one place that composes them
  // (docs/decisions/021-account-settings-deletion-and-export.md).
  await app.register(accountRoutes, {
    storage,
    hashPassword,
    verifyPassword,
    assertPasswordAccepted,
    recordSecurityEvent,
    cancelTaskAsPoster: async (task, poster, options) =>
      (await transitionTask(ctx, posterCancelRow(task.status), task.id, { kind: "person", user: poster }, options)) !== null,
    declineRequestAsProvider: async (task, provider, options) =>
      (await transitionTask(ctx, declineRow(task.fallback), task.id, { kind: "person", user: provider }, options)) !== null,
  });

  // Task photos complete their uploads through the providers' one upload flow (decision 030).
  await app.register(taskPhotosRoutes, {
    storage,
    completeUpload: (ownerId, uploadUrl) => completeUpload(ctx, storage, ownerId, uploadUrl, "task_photo", "photoURL"),
    boardCardChanged: (task) => app.boardCardChanged(task),
  });

  // Moderation runs the admin's rows of the task table through the one transition function (decision 059).
  await app.register(moderationRoutes, {
    adminTransition: (name, taskId, admin, options) => transitionTask(ctx, name, taskId, { kind: "person", user: admin }, options),
  });

  await app.register(seoRoutes);
  // Every plugin that owns a transition action has registered it by now: a missing or extra
  // handler stops the server here rather than at the first transition that needs it (decision 045).
  assertActionsHandled([ctx.taskActions, ctx.moneyActions, ctx.taskEventActions]);

  // Each page's title, description and share tags go into the HTML the SPA fallback sends
  // (docs/decisions/028-head-tags-from-the-server.md), and the job board's first page and a task
  // page are rendered into it with the tasks feature's answers (docs/decisions/036-server-rendered-data-pages.md).
  await app.register(spaPlugin, {
    pageHead: async (path) => renderHeadTags(await resolvePageHead({ db: ctx.db, publicUrl: env.PUBLIC_URL }, path)),
    pageData: async (request) => {
      const answer = await pageAnswer(ctx, app.boardAnswer, request);
      // A task page also shows its public questions (docs/decisions/063-public-questions.md).
      return answer && request.kind === "task" ? withTaskQuestions(ctx, request.id, answer) : answer;
    },
  });

  ctx.scheduler.register("sessions:cleanup", () => deleteExpiredSessions(ctx.db, ctx.now()));
  ctx.scheduler.register("rate-limits:cleanup", () =>
    deleteStaleRateLimits(ctx.db, new Date(ctx.now().getTime() - 86_400_000)),
  );
  ctx.scheduler.register("mail:deliver", () => ctx.mailer.deliverQueued());
  // The security log is kept SECURITY_LOG_RETENTION_DAYS (docs/decisions/050-step-up-and-security-log.md).
  ctx.scheduler.register("security-log:cleanup", () => deleteOldSecurityEvents(ctx.db, ctx.now()));
  ctx.scheduler.register("auth-challenges:cleanup", () => deleteExpiredChallenges(ctx.db, ctx.now()));

  await promoteAdminEmails(ctx.db, env.ADMIN_EMAILS);

  if (options.startScheduler) ctx.scheduler.start(env.SWEEP_INTERVAL_MS);
  app.addHook("onClose", async () => {
    await ctx.scheduler.stop();
    await ctx.afterAnswer.settled();
    ctx.mailer.close();
  });

  return app;
}
