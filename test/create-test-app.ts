import { randomUUID } from "node:crypto";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, inject } from "vitest";
import { buildApp } from "../src/server/app.js";
import { parseEnv, type Env } from "../src/server/config/env.js";
import { openDatabase, type Database } from "../src/server/db/client.js";
import { insertApprovedProfile } from "./fixtures/approved-provider.js";
import { freshDatabase } from "./postgres-cluster.js";
import { users } from "../src/server/db/schema/users.js";
import { totpFactors } from "../src/server/db/schema/security.js";
import { createSession } from "../src/server/features/auth/sessions.js";
import { newTotpSecret, sealTotpSecret } from "../src/server/features/auth/totp.js";
import type { UserRole } from "../src/shared/constants.js";

// Each test file gets its own database cloned from the migrated template (global-setup.ts) and its
// own app, called through app.inject with no network.

export const TEST_ORIGIN = "http://localhost:3000";

export class TestClock {
  private current: number;
  constructor(start = new Date("2026-06-01T12:00:00.000Z")) {
    this.current = start.getTime();
  }
  now = (): Date => new Date(this.current);
  advance(ms: number): void {
    this.current += ms;
  }
  set(date: Date): void {
    this.current = date.getTime();
  }
}

export interface TestApp {
  app: FastifyInstance;
  clock: TestClock;
  database: Database;
  env: Env;
  close(): Promise<void>;
}

/** A database of its own for one test file: a clone of the migrated template (global-setup.ts). */
export async function openTestDatabase(): Promise<{ database: Database; url: string; drop(): Promise<void> }> {
  const template = new URL(inject("postgresTemplate"));
  const server = new URL(template);
  server.pathname = "/postgres";
  const fresh = await freshDatabase(server.toString(), template.pathname.slice(1));
  const database = await openDatabase({ databaseUrl: fresh.url, poolSize: 20 });
  return { database, url: fresh.url, drop: fresh.destroy };
}

export async function createTestApp(envOverrides: Record<string, string> = {}, clock = new TestClock()): Promise<TestApp> {
  const { database, drop } = await openTestDatabase();
  const env = parseEnv({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    PUBLIC_URL: TEST_ORIGIN,
    SEED_DEMO: "false",
    DATA_DIR: `/tmp/errandly-test-${randomUUID()}`,
    ...envOverrides,
  });
  const app = await buildApp({ env, database, now: clock.now, logger: false });
  await app.ready();
  const result: TestApp = {
    app,
    clock,
    database,
    env,
    async close() {
      await app.close();
      await database.close();
      await drop();
    },
  };
  return result;
}

/** createTestApp with teardown registered for the file. */
export async function useTestApp(envOverrides: Record<string, string> = {}, clock?: TestClock): Promise<TestApp> {
  const t = await createTestApp(envOverrides, clock);
  afterAll(() => t.close());
  return t;
}

export interface TestUser {
  id: string;
  email: string;
  cookie: string;
}

let counter = 0;

/** A user straight in the database (no rate limits, no scrypt cost) with a signed-in session. */
export async function createUser(
  t: TestApp,
  overrides: {
    role?: UserRole;
    firstName?: string;
    lastName?: string;
    email?: string;
    verifiedProvider?: boolean;
    /** false: an account that has not opened its verification link yet (verified by default). */
    emailVerified?: boolean;
    /**
     * false for an admin: no second factor yet (promoted before enrolling, or after a factor reset),
     * so a session proven by the password alone, without admin powers (docs/decisions/068).
     */
    secondFactor?: boolean;
  } = {},
): Promise<TestUser> {
  counter += 1;
  const email = overrides.email ?? `user${counter}-${randomUUID().slice(0, 8)}@example.test`;
  const [user] = await t.database.db
    .insert(users)
    .values({
      email,
      firstName: overrides.firstName ?? `First${counter}`,
      lastName: overrides.lastName ?? `Last${counter}`,
      role: overrides.role ?? (overrides.verifiedProvider ? "provider" : "user"),
      passwordHash: null,
      emailVerifiedAt: overrides.emailVerified === false ? null : t.clock.now(),
    })
    .returning();
  if (!user) throw new Error("user not created");
  if (overrides.verifiedProvider) {
    await insertApprovedProfile(t.database.db, { id: user.id, email, fullName: `${user.firstName} ${user.lastName}`, bio: "Test provider" });
  }
  // Admins always have a second factor (docs/decisions/049-second-factors.md): an authenticator app,
  // given at sign-in. Everyone's session is freshly signed in with the password.
  const admin = user.role === "admin" && overrides.secondFactor !== false;
  if (admin) await t.database.db.insert(totpFactors).values({ userId: user.id, secret: sealTotpSecret(t.app.ctx.secrets, user.id, newTotpSecret()), confirmedAt: t.clock.now() });
  const token = await createSession(t.database.db, user.id, { idleDays: 7, absoluteDays: 30 }, t.clock.now(), {}, {
    firstFactor: "password",
    secondFactor: admin ? "totp" : null,
  });
  return { id: user.id, email, cookie: `errandly_session=${token}` };
}

/** app.inject with the caller's cookie and a same-origin Origin header on writes. */
export function call(t: TestApp, user: TestUser | null, options: InjectOptions): Promise<LightMyRequestResponse> {
  const method = (options.method ?? "GET").toUpperCase();
  const headers: Record<string, string> = { ...(options.headers as Record<string, string> | undefined) };
  if (user) headers.cookie = user.cookie;
  if (method !== "GET" && method !== "HEAD" && headers.origin === undefined) headers.origin = TEST_ORIGIN;
  return t.app.inject({ ...options, headers });
}
