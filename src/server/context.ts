import type { FastifyBaseLogger } from "fastify";
import type { AfterAnswer } from "./after-answer.js";
import type { Geocoder } from "./adapters/geocoding/geocoder.js";
import type { Mailer } from "./adapters/mail/mailer.js";
import type { PushSender } from "./adapters/push/push-sender.js";
import type { Env } from "./config/env.js";
import type { Database, Db } from "./db/client.js";
import type { Metrics } from "./metrics.js";
import type { Scheduler } from "./scheduler.js";
import type { SecretBox } from "./secrets/secret-box.js";
import type { MoneyActions, TaskActions, TaskEventActions } from "./transition-actions.js";

/** What every feature plugin gets: configuration, the database, the clock and shared services. */
export interface AppContext {
  env: Env;
  database: Database;
  db: Db;
  /** The one clock; tests replace it to move time. */
  now: () => Date;
  mailer: Mailer;
  /** Web Push to people's devices, or "disabled" when no VAPID keys could be had (adapters/push). */
  push: PushSender;
  /** Seals and opens the secrets kept in the database, such as authenticator apps' keys (decision 069). */
  secrets: SecretBox;
  /** One per process, so an external geocoder's 1 request/second queue and cache are shared. */
  geocoder: Geocoder;
  /** The task table's action handlers, one per name (transition-actions.ts). */
  taskActions: TaskActions;
  /** The money table's action handlers, one per name (transition-actions.ts). */
  moneyActions: MoneyActions;
  /** The task events' action handlers (src/shared/task-events.ts), one per name (transition-actions.ts; decision 083). */
  taskEventActions: TaskEventActions;
  scheduler: Scheduler;
  /** Work started once the answer has gone (after-answer.ts). */
  afterAnswer: AfterAnswer;
  log: FastifyBaseLogger;
  /** The families /metrics reports; features add the levels they own (metrics.ts). */
  metrics: Metrics;
}

declare module "fastify" {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
