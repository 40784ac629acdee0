import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import pg from "pg";
import { afterAll, inject } from "vitest";
import { buildApp } from "../src/server/app.js";
import { parseEnv } from "../src/server/config/env.js";
import { openDatabase } from "../src/server/db/client.js";
import { providerProfiles } from "../src/server/db/schema/providers.js";
import { users } from "../src/server/db/schema/users.js";
import { createSession } from "../src/server/features/auth/sessions.js";
// Each test file gets its own database copied from the migrated image (global-setup.ts) and its
// own app, called through app.inject with no network.
export const TEST_ORIGIN = "http://localhost:3000";
export class TestClock {
    current;
    constructor(start = new Date("2026-06-01T12:00:00.000Z")) {
        this.current = start.getTime();
    }
    now = () => new Date(this.current);
    advance(ms) {
        this.current += ms;
    }
    set(date) {
        this.current = date.getTime();
    }
}
export async function openTestDatabase() {
    const template = inject("postgresTemplate");
    if (template) {
        const name = `errandly_test_${randomUUID().replaceAll("-", "")}`;
        const adminUrl = new URL(template);
        adminUrl.pathname = "/postgres";
        const admin = new pg.Client({ connectionString: adminUrl.toString() });
        await admin.connect();
        await admin.query(`create database ${name} template ${new URL(template).pathname.slice(1)}`);
        await admin.end();
        const url = new URL(template);
        url.pathname = `/${name}`;
        const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 20 });
        return {
            database,
            url: url.toString(),
            async drop() {
                const a = new pg.Client({ connectionString: adminUrl.toString() });
                await a.connect();
                await a.query(`drop database if exists ${name} with (force)`);
                await a.end();
            },
        };
    }
    const image = readFileSync(inject("pgliteImage"));
    const database = await openDatabase({ dataDir: "memory://", loadDataDir: new Blob([image]) });
    return { database, url: undefined, drop: async () => undefined };
}
export async function createTestApp(envOverrides = {}, clock = new TestClock()) {
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
    const result = {
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
export async function useTestApp(envOverrides = {}, clock) {
    const t = await createTestApp(envOverrides, clock);
    afterAll(() => t.close());
    return t;
}
let counter = 0;
/** A user straight in the database (no rate limits, no scrypt cost) with a signed-in session. */
export async function createUser(t, overrides = {}) {
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
    })
        .returning();
    if (!user)
        throw new Error("user not created");
    if (overrides.verifiedProvider) {
        await t.database.db.insert(providerProfiles).values({
            userId: user.id,
            verificationStatus: "approved",
            fullName: `${user.firstName} ${user.lastName}`,
            email,
            phone: "4105550100",
            address: "1 Test St",
            city: "Annapolis",
            state: "MD",
            zipCode: "21401",
            serviceTypes: ["errands"],
            bio: "Test provider",
        });
    }
    const token = await createSession(t.database.db, user.id, { idleDays: 7, absoluteDays: 30 }, t.clock.now());
    return { id: user.id, email, cookie: `errandly_session=${token}` };
}
/** app.inject with the caller's cookie and a same-origin Origin header on writes. */
export function call(t, user, options) {
    const method = (options.method ?? "GET").toUpperCase();
    const headers = { ...options.headers };
    if (user)
        headers.cookie = user.cookie;
    if (method !== "GET" && method !== "HEAD" && headers.origin === undefined)
        headers.origin = TEST_ORIGIN;
    return t.app.inject({ ...options, headers });
}
//# sourceMappingURL=create-test-app.js.map