import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { generateSync } from "otplib";
import { afterAll, describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "../config/env.js";
import { queryRows } from "../db/client.js";
import { totpFactors } from "../db/schema/security.js";
import { users } from "../db/schema/users.js";
import { hashPassword } from "../features/auth/passwords.js";
import { newTotpSecret, sealTotpSecret } from "../features/auth/totp.js";
import { DEMO_ADMIN_TOTP_SECRET, DEMO_PASSWORD, seedDemoData } from "../seed/demo.js";
import { call, createUser, TEST_ORIGIN, useTestApp, type TestUser } from "../../../test/create-test-app.js";
import { protectSecretsAtRest, SecretsKeyMismatch } from "./at-rest.js";
import { loadSecretBox, newSecretsKey, SecretBox, SecretUnreadable, secretsKeyFile } from "./secret-box.js";

// Authenticator apps' keys are sealed in the database under a key kept outside it
// (docs/decisions/069-secrets-at-rest-and-encrypted-backups.md): no row holds one in the clear, a
// code still signs in, the plain rows an older version wrote are sealed at start, and a wrong key
// stops the start instead of failing every sign-in after it.

const t = await useTestApp();
const work = await mkdtemp(join(tmpdir(), "errandly-secrets-test-"));
afterAll(() => rm(work, { recursive: true, force: true }));

const PASSWORD = "orchid kettle planet";
const passwordHash = await hashPassword(PASSWORD);
const codeAt = (secret: string, stepsFromNow: number) => generateSync({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) + stepsFromNow * 30 });

/** A verified account with a password. */
async function account(): Promise<TestUser> {
  const user = await createUser(t);
  await t.database.db.update(users).set({ passwordHash }).where(eq(users.id, user.id));
  return user;
}

/** The stored value of an account's app key, read as it is in the database. */
async function storedSecret(userId: string): Promise<string | undefined> {
  const [row] = await queryRows<{ secret: string }>(t.database.db, sql`select secret from totp_factors where user_id = ${userId}`);
  return row?.secret;
}

/** The cookies a response sets, as a Cookie header. */
function cookiesOf(res: { headers: Record<string, unknown> }): string {
  const raw = res.headers["set-cookie"];
  return (Array.isArray(raw) ? raw : raw ? [raw] : []).map((c) => String(c).split(";")[0] ?? "").join("; ");
}

/** The password step of signing in (202: a second factor is asked for): its cookies. */
async function passwordStep(app: typeof t.app, email: string, password: string): Promise<string> {
  const login = await app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password }, headers: { origin: TEST_ORIGIN } });
  expect(login.statusCode).toBe(202);
  return cookiesOf(login);
}

/** Password, then `code` from the app: the second step's answer. */
async function signInWithCode(email: string, code: string) {
  const cookie = await passwordStep(t.app, email, PASSWORD);
  return t.app.inject({ method: "POST", url: "/api/auth/second-factor", payload: { code }, headers: { origin: TEST_ORIGIN, cookie } });
}

/** A row as the versions before decision 069 wrote it: the key in base32, in the clear. */
async function legacyRow(userId: string, secret = newTotpSecret()): Promise<string> {
  await t.database.db.insert(totpFactors).values({ userId, secret, confirmedAt: t.clock.now() });
  return secret;
}

describe("authenticator apps' keys at rest", () => {
  it("are stored sealed, and a code from the app still signs in", async () => {
    const user = await account();
    const setup = await call(t, user, { method: "POST", url: "/api/account/security/totp" });
    const { secret } = setup.json<{ secret: string }>();
    // Sealed from the moment the app is offered, before it is confirmed.
    const pending = await storedSecret(user.id);
    expect(pending).toMatch(/^v1:[A-Za-z0-9+/]+=*$/);
    expect(pending).not.toContain(secret);
    const confirm = await call(t, user, { method: "POST", url: "/api/account/security/totp/confirm", payload: { code: codeAt(secret, 0) } });
    expect(confirm.statusCode).toBe(200);

    const stored = await storedSecret(user.id);
    expect(stored).toMatch(/^v1:/);
    expect(stored).not.toContain(secret);
    // Nothing in the database holds it, in any column of any table.
    const [anywhere] = await queryRows<{ count: number }>(
      t.database.db,
      sql`select count(*)::int as count from totp_factors f where f::text like ${`%${secret}%`}`,
    );
    expect(anywhere?.count).toBe(0);

    // The enrolment used this step's code; the next step's signs in, and a wrong code is still wrong.
    t.clock.advance(30_000);
    expect((await signInWithCode(user.email, "000000")).statusCode).toBe(401);
    expect((await signInWithCode(user.email, codeAt(secret, 0))).statusCode).toBe(200);
  });

  it("seals a plain row an older version wrote when the server starts, once, and its code signs in", async () => {
    const user = await account();
    const secret = await legacyRow(user.id);
    expect(await storedSecret(user.id)).toBe(secret);

    const first = await protectSecretsAtRest(t.database.db, t.app.ctx.secrets);
    expect(first.sealed).toBeGreaterThanOrEqual(1);
    const sealed = await storedSecret(user.id);
    expect(sealed).toMatch(/^v1:/);
    expect(sealed).not.toContain(secret);
    // Idempotent: a second start finds nothing to do and leaves the value as it was.
    expect(await protectSecretsAtRest(t.database.db, t.app.ctx.secrets)).toEqual({ sealed: 0, resealed: 0, unreadable: 0 });
    expect(await storedSecret(user.id)).toBe(sealed);

    expect((await signInWithCode(user.email, codeAt(secret, 0))).statusCode).toBe(200);
  });

  it("is sealed once when two instances start at the same moment", async () => {
    const rows = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const user = await account();
        return { user, secret: await legacyRow(user.id) };
      }),
    );
    const [a, b] = await Promise.all([protectSecretsAtRest(t.database.db, t.app.ctx.secrets), protectSecretsAtRest(t.database.db, t.app.ctx.secrets)]);
    expect((a?.sealed ?? 0) + (b?.sealed ?? 0)).toBe(rows.length);
    for (const { user, secret } of rows) {
      const stored = (await storedSecret(user.id)) ?? "";
      // Sealed once: it opens to the app's key itself, not to a sealed value.
      expect(t.app.ctx.secrets.open(stored, `totp_factors.secret:${user.id}`)).toBe(secret);
    }
  });

  it("refuses the start with another key, saying what to do, and changes nothing", async () => {
    const sealedUser = await account();
    await t.database.db.insert(totpFactors).values({ userId: sealedUser.id, secret: sealTotpSecret(t.app.ctx.secrets, sealedUser.id, newTotpSecret()), confirmedAt: t.clock.now() });
    const plainUser = await account();
    const plain = await legacyRow(plainUser.id);
    const before = await storedSecret(sealedUser.id);

    const wrong = new SecretBox([newSecretsKey()], "SECRETS_KEY");
    const refused = protectSecretsAtRest(t.database.db, wrong);
    await expect(refused).rejects.toBeInstanceOf(SecretsKeyMismatch);
    await expect(refused).rejects.toThrow(
      /^The database holds \d+ authenticator-app keys? that SECRETS_KEY cannot decrypt: another key sealed (it|them)\. Start with that key/,
    );
    // One transaction: the plain row was not sealed under the wrong key either.
    expect(await storedSecret(plainUser.id)).toBe(plain);
    expect(await storedSecret(sealedUser.id)).toBe(before);
    await protectSecretsAtRest(t.database.db, t.app.ctx.secrets);
  });

  it("moves every value to a new key while the old one is SECRETS_KEY_PREVIOUS", async () => {
    const user = await account();
    const secret = newTotpSecret();
    await t.database.db.insert(totpFactors).values({ userId: user.id, secret: sealTotpSecret(t.app.ctx.secrets, user.id, secret), confirmedAt: t.clock.now() });
    const [old] = t.app.ctx.secrets.exportKeys();
    const next = newSecretsKey();
    const rotating = new SecretBox([next, old ?? ""], "SECRETS_KEY and SECRETS_KEY_PREVIOUS");
    const counts = await protectSecretsAtRest(t.database.db, rotating);
    expect(counts.resealed).toBeGreaterThanOrEqual(1);
    expect(counts.unreadable).toBe(0);
    // The new key alone now opens every row; the old one alone opens none of them.
    const onlyNew = new SecretBox([next], "SECRETS_KEY");
    expect(await protectSecretsAtRest(t.database.db, onlyNew)).toEqual({ sealed: 0, resealed: 0, unreadable: 0 });
    expect(onlyNew.open((await storedSecret(user.id)) ?? "", `totp_factors.secret:${user.id}`)).toBe(secret);
    await expect(protectSecretsAtRest(t.database.db, t.app.ctx.secrets)).rejects.toBeInstanceOf(SecretsKeyMismatch);
    // Back to the app's key, for the tests after this one.
    await protectSecretsAtRest(t.database.db, new SecretBox([old ?? "", next], "SECRETS_KEY and SECRETS_KEY_PREVIOUS"));
  });

  it("binds a sealed value to its account: copied into another row it does not open", async () => {
    const owner = await account();
    const intruder = await account();
    const secret = newTotpSecret();
    const sealed = sealTotpSecret(t.app.ctx.secrets, intruder.id, secret);
    expect(() => t.app.ctx.secrets.open(sealed, `totp_factors.secret:${owner.id}`)).toThrow(SecretUnreadable);
    expect(t.app.ctx.secrets.open(sealed, `totp_factors.secret:${intruder.id}`)).toBe(secret);
  });

  it("keeps the demo admin's printed key working", async () => {
    // The template database is empty, as a fresh `npm start`'s is; this file's rows are not
    // users the seed counts on, so it runs on a database of its own.
    const demo = await useTestApp();
    expect(await seedDemoData(demo.database.db, demo.app.ctx.secrets, demo.clock.now())).toBe(true);
    const [admin] = await demo.database.db.select({ id: users.id }).from(users).where(eq(users.email, "admin@errandly.test"));
    const stored = await queryRows<{ secret: string }>(demo.database.db, sql`select secret from totp_factors where user_id = ${admin?.id ?? ""}`);
    expect(stored[0]?.secret).toMatch(/^v1:/);
    expect(stored[0]?.secret).not.toContain(DEMO_ADMIN_TOTP_SECRET);
    const cookie = await passwordStep(demo.app, "admin@errandly.test", DEMO_PASSWORD);
    const code = generateSync({ secret: DEMO_ADMIN_TOTP_SECRET, epoch: Math.floor(demo.clock.now().getTime() / 1000) });
    const signedIn = await demo.app.inject({ method: "POST", url: "/api/auth/second-factor", payload: { code }, headers: { origin: TEST_ORIGIN, cookie } });
    expect(signedIn.statusCode).toBe(200);
  });
});

describe("the secrets key", () => {
  it("is made on the first start in DATA_DIR, readable by its owner alone, and read on the next", async () => {
    const dataDir = join(work, `data-${randomUUID()}`);
    const env = parseEnv({ NODE_ENV: "test", DATA_DIR: dataDir });
    const first = await loadSecretBox(env);
    expect(first.source).toBe(`${secretsKeyFile(dataDir)} (made on this start)`);
    expect((await stat(secretsKeyFile(dataDir))).mode & 0o777).toBe(0o600);
    expect((await readFile(secretsKeyFile(dataDir), "utf8")).trim()).toBe(first.exportKeys()[0]);
    const again = await loadSecretBox(env);
    expect(again.exportKeys()).toEqual(first.exportKeys());
    // Two processes starting at once on one directory end up with one key.
    const other = join(work, `data-${randomUUID()}`);
    const [a, b] = await Promise.all([loadSecretBox({ ...env, DATA_DIR: other }), loadSecretBox({ ...env, DATA_DIR: other })]);
    expect(a.exportKeys()).toEqual(b.exportKeys());
  });

  it("is SECRETS_KEY when set, and required with DATABASE_URL, where instances share a database", async () => {
    const key = newSecretsKey();
    const dataDir = join(work, `data-${randomUUID()}`);
    const box = await loadSecretBox(parseEnv({ NODE_ENV: "test", DATA_DIR: dataDir, SECRETS_KEY: key }));
    expect(box.exportKeys()).toEqual([key]);
    await expect(stat(secretsKeyFile(dataDir))).rejects.toThrow(/ENOENT/);

    const shared = { NODE_ENV: "test", DATABASE_URL: "postgres://db.example/errandly", STORAGE_DIR: "/mnt/shared" };
    expect(() => parseEnv(shared)).toThrow(EnvError);
    expect(() => parseEnv(shared)).toThrow(/SECRETS_KEY: is required when DATABASE_URL is set: every instance on that database must read the authenticator apps' keys with the same key/);
    expect(parseEnv({ ...shared, SECRETS_KEY: key }).SECRETS_KEY).toBe(key);
    expect(() => parseEnv({ NODE_ENV: "test", SECRETS_KEY: "too short" })).toThrow(/SECRETS_KEY: must be 32 random bytes in base64/);
    expect(() => parseEnv({ NODE_ENV: "test", SECRETS_KEY_PREVIOUS: key })).toThrow(/SECRETS_KEY_PREVIOUS: only applies with SECRETS_KEY/);
  });
});
