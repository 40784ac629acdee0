import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { queryRows } from "../db/client.js";
import { MIGRATIONS_DIR } from "../paths.js";
import { isDatabaseUnavailable } from "./errors.js";

// Two answers for whoever watches the instance (docs/deploy.md, "Health"): /api/health says the
// process answers (liveness: restart it when this fails), /api/health/ready says it should get
// traffic (the load balancer's check): the database answers, every migration this build ships is
// applied, and it is not draining for a shutdown. Neither waits in the admission line: a full line
// must not make a busy instance look dead (docs/decisions/051-pooler-and-topology.md).

declare module "fastify" {
  interface FastifyInstance {
    health: Health;
  }
}

export interface Health {
  /** From now on readiness answers 503: the instance is shutting down (main.ts). */
  startDraining(): void;
  readonly draining: boolean;
}

export const NOT_READY = {
  draining: "This instance is shutting down; send requests to another one.",
  database: "The database does not answer; requests will be retried once it is back.",
  migrations: "The database lacks migrations this version needs; start an instance of this version to apply them, then check again.",
} as const;

const readySchema = z.object({ status: z.literal("ready") });
const notReadySchema = z.object({ message: z.string(), reason: z.enum(["draining", "database", "migrations"]) });

export default fp(
  async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    let draining = false;
    app.decorate("health", {
      startDraining: () => {
        draining = true;
      },
      get draining() {
        return draining;
      },
    });
    // The newest migration this build ships, read once: the files do not change under a running build.
    const newestMigration = Math.max(0, ...readMigrationFiles({ migrationsFolder: MIGRATIONS_DIR }).map((m) => m.folderMillis));

    app.get(
      "/api/health",
      {
        config: { auth: "public", admission: false },
        schema: {
          operationId: "checkAlive",
          summary: "Liveness: the process answers (it does not ask the database).",
          tags: ["platform"],
          response: { 200: z.object({ status: z.literal("ok") }) },
        },
      },
      async () => ({ status: "ok" as const }),
    );

    app.get(
      "/api/health/ready",
      {
        config: { auth: "public", admission: false },
        schema: {
          operationId: "checkReady",
          summary: "Readiness for a load balancer: database reachable, migrations applied, not draining.",
          tags: ["platform"],
          response: { 200: readySchema, 503: notReadySchema },
        },
      },
      async (_request, reply) => {
        const notReady = (reason: keyof typeof NOT_READY) => reply.code(503).send({ message: NOT_READY[reason], reason });
        if (draining) return notReady("draining");
        let applied: number;
        try {
          // drizzle's own ledger of applied migrations (created_at is each one's folderMillis).
          const [row] = await queryRows<{ last: string | null }>(app.ctx.db, sql`select max(created_at) as last from drizzle.__drizzle_migrations`);
          applied = Number(row?.last ?? 0);
        } catch (err) {
          if (isDatabaseUnavailable(err)) return notReady("database");
          // No ledger table at all: nothing was ever migrated here.
          if ((err as { cause?: { code?: string } }).cause?.code === "42P01") return notReady("migrations");
          throw err;
        }
        if (applied < newestMigration) return notReady("migrations");
        return { status: "ready" as const };
      },
    );
  },
  { name: "health", dependencies: ["errors"] },
);
