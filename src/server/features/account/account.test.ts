import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { call, createUser, TEST_ORIGIN, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { createPoster, createProvider, postRequestTask, taskAt, taskRow, transition } from "../../../../test/fixtures/factory.js";
import { tinyPng } from "../../../../test/fixtures/test-files.js";
import { CURRENT_PASSWORD_WRONG, type AccountExport, type SessionView } from "../../../shared/account.js";
import { createStorage } from "../../adapters/storage/create-storage.js";
import { queryRows } from "../../db/client.js";
import { messages, notifications } from "../../db/schema/chat.js";
import { payouts } from "../../db/schema/payments.js";
import { providerProfiles, uploads } from "../../db/schema/providers.js";
import { reviews } from "../../db/schema/reviews.js";
import { openSocketOrThrow } from "../../../../test/test-socket.js";
import { auditLog, sessions, users } from "../../db/schema/users.js";
import { publicPhotoKey } from "../../public-images.js";
import { hashPassword } from "../auth/passwords.js";

// The account routes end to end through app.inject (docs/decisions/021-account-settings-deletion-and-export.md).

const t = await useTestApp();
const PASSWORD = "old password 123";
const CHROME_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const FIREFOX_WIN = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0";

let wsUrl = "";
beforeAll(async () => {
  wsUrl = `${(await t.app.listen({ port: 0, host: "127.0.0.1" })).replace("http://", "ws://")}/ws`;
});

let ips = 0;
const nextIp = () => `10.88.${Math.floor(++ips / 250)}.${(ips % 250) + 1}`;

/** A user with a password (set directly: scrypt once) and the session createUser gave them. */
async function withPassword(user: TestUser, password = PASSWORD): Promise<TestUser> {
  await t.database.db.update(users).set({ passwordHash: await hashPassword(password) }).where(eq(users.id, user.id));
  return user;
}

/** Signs in again through the real route with this browser's User-Agent: another session. */
async function signIn(user: TestUser, agent: string, password = PASSWORD): Promise<TestUser> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email: user.email, password },
    headers: { origin: TEST_ORIGIN, "user-agent": agent },
    remoteAddress: nextIp(),
  });
  expect(res.statusCode, res.body).toBe(200);
  const cookie = String([res.headers["set-cookie"]].flat().find((c) => String(c).startsWith("errandly_session=")) ?? "").split(";")[0] ?? "";
  return { ...user, cookie };
}

/** Whether the session still signs its person in, as a status: GET /api/auth/user answers null once it has ended. */
const whoIs = async (user: TestUser) => ((await call(t, user, { url: "/api/auth/user" })).json() === null ? 401 : 200);

async function uploadedPhoto(user: TestUser): Promise<string> {
  const link = await call(t, user, { method: "POST", url: "/api/objects/upload", payload: { kind: "profile_photo" } });
  const uploadURL = (link.json() as { uploadURL: string }).uploadURL;
  expect((await call(t, user, { method: "PUT", url: uploadURL, payload: tinyPng(), headers: { "content-type": "image/png" } })).statusCode).toBe(200);
  const done = await call(t, user, { method: "PUT", url: "/api/provider/set-profile-photo", payload: { profilePhotoURL: uploadURL } });
  expect(done.statusCode, done.body).toBe(200);
  return (done.json() as { objectPath: string }).objectPath;
}

/** A socket of `user` on /ws (test/test-socket.ts). */
const openSocket = (user: TestUser) => openSocketOrThrow(wsUrl, { origin: TEST_ORIGIN, cookie: user.cookie });

describe("profile", () => {
  it("PATCH /api/account/profile changes the name everyone sees; a blank name is refused with the field named", async () => {
    const user = await createUser(t);
    const res = await call(t, user, { method: "PATCH", url: "/api/account/profile", payload: { firstName: " Ada ", lastName: "Lovelace" } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ firstName: "Ada", lastName: "Lovelace", hasPassword: false });
    expect((await call(t, user, { url: "/api/auth/user" })).json()).toMatchObject({ firstName: "Ada", lastName: "Lovelace" });
    const blank = await call(t, user, { method: "PATCH", url: "/api/account/profile", payload: { firstName: "  ", lastName: "L" } });
    expect(blank.statusCode).toBe(400);
    expect(blank.json<{ message: string }>().message).toContain("First name");
  });
});

describe("photo", () => {
  it("any user sets a photo through the upload flow: shown at once, readable by others, removable", async () => {
    const user = await createUser(t);
    const stranger = await createUser(t);
    const path = await uploadedPhoto(user);
    const set = await call(t, user, { method: "PUT", url: "/api/account/photo", payload: { photoURL: path } });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ profileImageUrl: path, pendingProfileImageUrl: null });
    expect((await call(t, user, { url: "/api/auth/user" })).json()).toMatchObject({ profileImageUrl: path });
    expect((await call(t, stranger, { url: path })).statusCode).toBe(200);

    const removed = await call(t, user, { method: "DELETE", url: "/api/account/photo" });
    expect(removed.json()).toEqual({ profileImageUrl: null, pendingProfileImageUrl: null });
    expect((await call(t, stranger, { url: path })).statusCode).toBe(404);
  });

  it("refuses a file that is not the caller's photo upload", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const path = await uploadedPhoto(owner);
    const res = await call(t, other, { method: "PUT", url: "/api/account/photo", payload: { photoURL: path } });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain("photoURL");
    const bad = await call(t, other, { method: "PUT", url: "/api/account/photo", payload: { photoURL: "https://evil.example/x.png" } });
    expect(bad.statusCode).toBe(400);
  });
});

describe("an approved provider's new photo waits for an admin", () => {
  async function providerWithPhoto() {
    const provider = await createProvider(t);
    const first = await uploadedPhoto(provider);
    // The photo they had as an approved provider (decision 021: it is the user photo too).
    await t.database.db.update(users).set({ profileImageUrl: first }).where(eq(users.id, provider.id));
    await t.database.db.update(providerProfiles).set({ profilePhotoPath: first }).where(eq(providerProfiles.userId, provider.id));
    return { provider, first };
  }
  const admin = () => createUser(t, { role: "admin" });

  it("approve: the old photo stays until the admin approves; then the new one is shown and the provider is told", async () => {
    const { provider, first } = await providerWithPhoto();
    const stranger = await createUser(t);
    const next = await uploadedPhoto(provider);
    const set = await call(t, provider, { method: "PUT", url: "/api/account/photo", payload: { photoURL: next } });
    expect(set.json()).toEqual({ profileImageUrl: first, pendingProfileImageUrl: next });
    // Still approved; strangers see the old photo and cannot read the pending one.
    const [profile] = await t.database.db.select().from(providerProfiles).where(eq(providerProfiles.userId, provider.id));
    expect(profile).toMatchObject({ verificationStatus: "approved", profilePhotoPath: first });
    expect((await call(t, stranger, { url: next })).statusCode).toBe(404);

    const boss = await admin();
    const queue = await call(t, boss, { url: "/api/admin/photo-changes" });
    expect(queue.json()).toContainEqual(expect.objectContaining({ userId: provider.id, currentPhotoUrl: first, pendingPhotoUrl: next }));
    expect((await call(t, provider, { url: "/api/admin/photo-changes" })).statusCode).toBe(403);

    expect((await call(t, boss, { method: "POST", url: `/api/admin/photo-changes/${provider.id}/approve` })).statusCode).toBe(200);
    expect((await call(t, provider, { url: "/api/auth/user" })).json()).toMatchObject({ profileImageUrl: next });
    const [after] = await t.database.db.select().from(providerProfiles).where(eq(providerProfiles.userId, provider.id));
    expect(after).toMatchObject({ verificationStatus: "approved", profilePhotoPath: next });
    expect((await call(t, stranger, { url: next })).statusCode).toBe(200);
    const notes = await t.database.db.select().from(notifications).where(eq(notifications.userId, provider.id));
    expect(notes.map((n) => [n.kind, n.title])).toContainEqual(["photo_decided", "Your new profile photo was approved"]);
    // Nothing is waiting any more.
    expect((await call(t, boss, { method: "POST", url: `/api/admin/photo-changes/${provider.id}/approve` })).statusCode).toBe(404);
  });

  it("reject: the old photo stays, the provider is told why; the providers' own photo route waits for approval too", async () => {
    const { provider, first } = await providerWithPhoto();
    const next = await uploadedPhoto(provider);
    // The path that existed before: the provider profile's own photo field.
    const patch = await call(t, provider, { method: "PATCH", url: "/api/provider/profile", payload: { profilePhotoUrl: next } });
    expect(patch.statusCode, patch.body).toBe(200);
    expect((await call(t, provider, { url: "/api/account" })).json()).toMatchObject({ profileImageUrl: first, pendingProfileImageUrl: next });

    const boss = await admin();
    const noReason = await call(t, boss, { method: "POST", url: `/api/admin/photo-changes/${provider.id}/reject`, payload: {} });
    expect(noReason.statusCode).toBe(400);
    const res = await call(t, boss, { method: "POST", url: `/api/admin/photo-changes/${provider.id}/reject`, payload: { reason: "The face is not visible" } });
    expect(res.statusCode).toBe(200);
    expect((await call(t, provider, { url: "/api/account" })).json()).toMatchObject({ profileImageUrl: first, pendingProfileImageUrl: null });
    const notes = await t.database.db.select().from(notifications).where(eq(notifications.userId, provider.id));
    expect(notes.find((n) => n.kind === "photo_decided")?.body).toContain("The face is not visible");
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, provider.id));
    expect(audit.map((a) => a.action)).toContain("profile_photo.reject");
  });
});

describe("password", () => {
  it("needs the current password: a wrong one answers 400 in plain words and changes nothing", async () => {
    const user = await withPassword(await createUser(t));
    const res = await call(t, user, { method: "POST", url: "/api/account/password", payload: { currentPassword: "nope nope", newPassword: "brand new secret 1" } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: CURRENT_PASSWORD_WRONG, fieldErrors: { currentPassword: CURRENT_PASSWORD_WRONG } });
    await signIn(user, CHROME_MAC);
    const short = await call(t, user, { method: "POST", url: "/api/account/password", payload: { currentPassword: PASSWORD, newPassword: "short" } });
    expect(short.statusCode).toBe(400);
    expect(short.json<{ message: string }>().message).toContain("Password must be at least");
    // The policy's refusal lands under the new password's field, not the current one's.
    const common = await call(t, user, { method: "POST", url: "/api/account/password", payload: { currentPassword: PASSWORD, newPassword: "password1234" } });
    const tooCommon = "This password is too common: choose one that is hard to guess, for example three or four unrelated words.";
    expect(common.json()).toEqual({ message: tooCommon, fieldErrors: { newPassword: tooCommon } });
  });

  it("ends every other session of the user (their socket closes), keeps this one, and the new password signs in", async () => {
    const here = await withPassword(await createUser(t));
    const there = await signIn(here, FIREFOX_WIN);
    const bystander = await withPassword(await createUser(t));
    const socket = await openSocket(there);
    const bystanderSocket = await openSocket(bystander);
    const closed = socket.closed();

    const res = await call(t, here, { method: "POST", url: "/api/account/password", payload: { currentPassword: PASSWORD, newPassword: "brand new secret 1" } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ signedOut: 1 });
    expect(await closed).toBe(1008);
    expect(bystanderSocket.socket.readyState).toBe(WebSocket.OPEN);
    bystanderSocket.close();
    expect(await whoIs(here)).toBe(200);
    expect(await whoIs(there)).toBe(401);
    expect(await whoIs(bystander)).toBe(200);
    await signIn(here, CHROME_MAC, "brand new secret 1");
    const old = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email: here.email, password: PASSWORD }, headers: { origin: TEST_ORIGIN }, remoteAddress: nextIp() });
    expect(old.statusCode).toBe(401);
  });

  it("an account without a password (single sign-on) is told so", async () => {
    const user = await createUser(t);
    const res = await call(t, user, { method: "POST", url: "/api/account/password", payload: { currentPassword: "anything", newPassword: "brand new secret 1" } });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain("single sign-on");
  });
});

describe("sessions", () => {
  it("lists the user's sessions with the device, marks this one, and never shows another user's", async () => {
    const user = await withPassword(await createUser(t));
    const mac = await signIn(user, CHROME_MAC);
    await signIn(user, FIREFOX_WIN);
    const other = await createUser(t);
    const list = (await call(t, mac, { url: "/api/account/sessions" })).json<SessionView[]>();
    expect(list).toHaveLength(3);
    expect(list.filter((s) => s.current).map((s) => s.device)).toEqual(["Chrome on macOS"]);
    expect(list.map((s) => s.device).sort()).toEqual(["Chrome on macOS", "Firefox on Windows", "Unknown device"]);
    const otherIds = (await call(t, other, { url: "/api/account/sessions" })).json<SessionView[]>().map((s) => s.id);
    expect(otherIds.some((id) => list.some((s) => s.id === id))).toBe(false);
  });

  it("DELETE /api/account/sessions/:id ends one of one's own; another user's answers 404 and stays", async () => {
    const user = await withPassword(await createUser(t));
    const firefox = await signIn(user, FIREFOX_WIN);
    const list = (await call(t, user, { url: "/api/account/sessions" })).json<SessionView[]>();
    const target = list.find((s) => !s.current);
    if (!target) throw new Error("no second session");
    const stranger = await createUser(t);
    expect((await call(t, stranger, { method: "DELETE", url: `/api/account/sessions/${target.id}` })).statusCode).toBe(404);
    expect(await whoIs(firefox)).toBe(200);
    expect((await call(t, user, { method: "DELETE", url: `/api/account/sessions/${target.id}` })).statusCode).toBe(200);
    expect(await whoIs(firefox)).toBe(401);
    expect(await whoIs(user)).toBe(200);
  });

  it("sign out everywhere else ends all but this session", async () => {
    const user = await withPassword(await createUser(t));
    const a = await signIn(user, FIREFOX_WIN);
    const b = await signIn(user, CHROME_MAC);
    const res = await call(t, user, { method: "POST", url: "/api/account/sessions/sign-out-others" });
    expect(res.json()).toEqual({ signedOut: 2 });
    expect([await whoIs(user), await whoIs(a), await whoIs(b)]).toEqual([200, 401, 401]);
  });
});

describe("export", () => {
  it("is a JSON attachment of the caller's data, with nothing private of anyone else", async () => {
    const poster = await withPassword(await createPoster(t, { firstName: "Pia", lastName: "Poster" }));
    const provider = await createProvider(t, { firstName: "Rex", lastName: "Provider" });
    const { task } = await taskAt(t, "completed", { poster, provider, budgetCents: 5000, body: { location: "99 Secret Lane" } });
    expect((await call(t, poster, { method: "POST", url: "/api/messages", payload: { taskId: task.id, content: "Thanks a lot!" } })).statusCode).toBe(201);
    expect((await call(t, provider, { method: "POST", url: "/api/messages", payload: { taskId: task.id, content: "Provider's own words" } })).statusCode).toBe(201);
    expect(
      (await call(t, poster, { method: "POST", url: "/api/reviews", payload: { taskId: task.id, reviewedId: provider.id, rating: 5, comment: "Great" } })).statusCode,
    ).toBe(201);

    const res = await call(t, poster, { url: "/api/account/export" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("application/json");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="errandly-data-${t.clock.now().toISOString().slice(0, 10)}.json"`);
    const data = res.json<AccountExport>();
    expect(data.profile).toMatchObject({ id: poster.id, email: poster.email, firstName: "Pia" });
    expect(data.tasksPosted.map((x) => x.id)).toEqual([task.id]);
    expect(data.tasksPosted[0]).toMatchObject({ location: "99 Secret Lane", providerId: provider.id });
    expect(data.messagesWritten.map((m) => m.content)).toEqual(["Thanks a lot!"]);
    expect(data.reviewsGiven).toMatchObject([{ rating: 5, comment: "Great" }]);
    expect(data.payments).toHaveLength(1);
    expect(data.ledgerEntries.length).toBeGreaterThan(0);
    expect(data.notifications.length).toBeGreaterThan(0);
    expect(data.sessions.length).toBeGreaterThan(0);
    expect(data.notificationPreferences["email:chat_message"]).toBe(true);
    const text = res.body;
    expect(text).not.toContain(provider.email);
    expect(text).not.toContain("Provider's own words");
    expect(text).not.toMatch(/token_?hash/i);
    expect(text).not.toContain("passwordHash");
    const [session] = await t.database.db.select().from(sessions).where(eq(sessions.userId, poster.id));
    expect(text).not.toContain(session?.tokenHash ?? "no session");

    // The provider's side: the task they did, without the poster's street address or e-mail.
    const theirs = (await call(t, provider, { url: "/api/account/export" })).json<AccountExport>();
    expect(theirs.tasksDone.map((x) => x.id)).toEqual([task.id]);
    // The poster's review is blind until the provider reviews too.
    expect(theirs.reviewsReceived).toEqual([]);
    expect(JSON.stringify(theirs)).not.toContain("Great");
    expect(theirs.providerApplication).toMatchObject({ verificationStatus: "approved", hasIdDocument: false });
    expect(JSON.stringify(theirs)).not.toContain("99 Secret Lane");
    expect(JSON.stringify(theirs)).not.toContain(poster.email);
    expect(theirs.ledgerEntries.some((e) => e.account === `provider:${provider.id}:balance`)).toBe(true);
    expect(
      (await call(t, provider, { method: "POST", url: "/api/reviews", payload: { taskId: task.id, reviewedId: poster.id, rating: 4, comment: "Kind" } })).statusCode,
    ).toBe(201);
    const revealed = (await call(t, provider, { url: "/api/account/export" })).json<AccountExport>();
    expect(revealed.reviewsReceived).toMatchObject([{ rating: 5, comment: "Great" }]);
  });
});

describe("deleting the account", () => {
  const remove = (user: TestUser, body: object = { password: PASSWORD }) => call(t, user, { method: "DELETE", url: "/api/account", payload: body });

  async function expectLedgerInvariants(): Promise<void> {
    const db = t.database.db;
    expect(await queryRows(db, sql`select transaction_id from ledger_entries group by transaction_id having sum(amount_cents) <> 0`)).toEqual([]);
    expect(await queryRows(db, sql`select account from ledger_entries where account like 'escrow:%' group by account having sum(amount_cents) < 0`)).toEqual([]);
    // A settled escrow (released or refunded) holds nothing.
    expect(
      await queryRows(
        db,
        sql`select h.task_id from escrow_holds h where h.status in ('released', 'refunded')
            and (select coalesce(sum(e.amount_cents), 0) from ledger_entries e where e.account = 'escrow:task:' || h.task_id) <> 0`,
      ),
    ).toEqual([]);
  }

  // Each side is told what it can do: providers cannot cancel, and nobody cancels work in progress.
  it.each([
    ["claimed", "Cancel it on its page", "Ask the poster to decline your claim, or wait: an unpaid claim ends at its payment deadline."],
    ["paid", "Cancel it on its page", "Do the task and mark it complete, or ask its poster to cancel it"],
    ["in_progress", "Once the provider marks it complete", "Mark it complete when the work is done"],
  ] as const)("refuses with 409 while a task is %s, saying what the poster and the provider can do", async (stage, toPoster, toProvider) => {
    const poster = await withPassword(await createPoster(t));
    const provider = await withPassword(await createProvider(t));
    await taskAt(t, stage, { poster, provider });
    for (const [who, words] of [[poster, toPoster], [provider, toProvider]] as const) {
      const res = await remove(who);
      expect(res.statusCode, `${stage}`).toBe(409);
      const message = res.json<{ message: string }>().message;
      expect(message).toContain(words);
      expect(message).toMatch(/\.$/);
      expect(message).not.toMatch(who === provider ? /cancel it first|Cancel it on/ : /cancel it first/);
      expect(await whoIs(who)).toBe(200);
    }
  });

  it("refuses while money is held in escrow (approval window or dispute)", async () => {
    for (const stage of ["completed", "disputed"] as const) {
      const poster = await withPassword(await createPoster(t));
      const provider = await withPassword(await createProvider(t));
      await taskAt(t, stage, { poster, provider, budgetCents: 10_000 });
      for (const who of [poster, provider]) {
        const res = await remove(who);
        expect(res.statusCode).toBe(409);
        expect(res.json<{ message: string }>().message).toMatch(/held in escrow|held while a reported problem/);
      }
    }
  });

  it("refuses while the provider has earnings not paid out; succeeds once they are", async () => {
    const provider = await withPassword(await createProvider(t));
    await taskAt(t, "completed", { provider, budgetCents: 5000 });
    const res = await remove(provider);
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toContain("$42.50 in earnings that has not been paid out");
    expect((await call(t, provider, { method: "POST", url: "/api/stripe/connect/account" })).statusCode).toBe(201);
    expect((await call(t, provider, { method: "POST", url: "/api/sandbox/payouts/complete-onboarding" })).statusCode).toBe(200);
    const [payout] = await t.database.db.select().from(payouts).where(eq(payouts.providerId, provider.id));
    expect(payout).toMatchObject({ amountCents: 4250, status: "paid" });
    // A payout still on its way counts as money not yet with them.
    await t.database.db.execute(sql`update payouts set status = 'pending', paid_at = null where id = ${payout?.id ?? ""}`);
    const pending = await remove(provider);
    expect(pending.statusCode).toBe(409);
    expect(pending.json<{ message: string }>().message).toContain("payout of $42.50 is still on its way");
    await t.database.db.execute(sql`update payouts set status = 'paid', paid_at = now() where id = ${payout?.id ?? ""}`);
    expect((await remove(provider)).statusCode).toBe(200);
    await expectLedgerInvariants();
  });

  it("needs the password (or for single sign-on the e-mail typed out)", async () => {
    const user = await withPassword(await createUser(t));
    const wrong = await remove(user, { password: "not it at all" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<{ message: string }>().message).toContain("password is not right");
    expect((await remove(user, {})).statusCode).toBe(400);
    const sso = await createUser(t);
    expect((await remove(sso, { email: "someone@else.test" })).statusCode).toBe(400);
    expect((await remove(sso, { email: sso.email.toUpperCase() })).statusCode).toBe(200);
    expect(await whoIs(sso)).toBe(401);
  });

  it("anonymizes the person, cancels their open tasks, ends every session and keeps the records others rely on", async () => {
    const poster = await withPassword(await createPoster(t, { firstName: "Dana", lastName: "Gone" }));
    const provider = await createProvider(t);
    // A finished, released task with a review, chat and payment: the provider relies on it.
    const done = await taskAt(t, "completed", { poster, provider, budgetCents: 5000 });
    expect((await call(t, poster, { method: "POST", url: "/api/messages", payload: { taskId: done.task.id, content: "See you" } })).statusCode).toBe(201);
    expect(
      (await call(t, poster, { method: "POST", url: "/api/reviews", payload: { taskId: done.task.id, reviewedId: provider.id, rating: 4, comment: "Fine work" } }))
        .statusCode,
    ).toBe(201);
    const open = await taskAt(t, "open", { poster });
    const photo = await uploadedPhoto(poster);
    expect((await call(t, poster, { method: "PUT", url: "/api/account/photo", payload: { photoURL: photo } })).statusCode).toBe(200);
    const [file] = await t.database.db.select().from(uploads).where(eq(uploads.ownerId, poster.id));
    const storage = await createStorage(t.env);
    expect(await storage.get(file?.storageKey ?? "")).not.toBeNull();
    const image = publicPhotoKey(file?.id ?? "");
    expect(await storage.get(image)).not.toBeNull();
    const other = await signIn(poster, FIREFOX_WIN);
    const socket = await openSocket(other);
    const closed = socket.closed();
    const ledgerBefore = await queryRows(t.database.db, sql`select count(*)::int as n, sum(amount_cents)::bigint as total from ledger_entries`);
    const balanceBefore = await queryRows(t.database.db, sql`select sum(amount_cents)::bigint as total from ledger_entries where account = ${`provider:${provider.id}:balance`}`);

    const res = await remove(poster);
    expect(res.statusCode, res.body).toBe(200);
    expect(String(res.headers["set-cookie"])).toMatch(/errandly_session=;/);
    expect(await closed).toBe(1008);
    expect([await whoIs(poster), await whoIs(other)]).toEqual([401, 401]);
    const login = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email: poster.email, password: PASSWORD }, headers: { origin: TEST_ORIGIN }, remoteAddress: nextIp() });
    expect(login.statusCode).toBe(401);

    const [row] = await t.database.db.select().from(users).where(eq(users.id, poster.id));
    expect(row).toMatchObject({
      firstName: "Deleted",
      lastName: "user",
      email: `deleted-${poster.id}@deleted.invalid`,
      passwordHash: null,
      oidcSubject: null,
      profileImageUrl: null,
    });
    expect(row?.deletedAt).not.toBeNull();
    expect((await taskRow(t, open.task.id)).status).toBe("cancelled");
    expect((await taskRow(t, done.task.id)).status).toBe("completed");
    expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, poster.id))).toEqual([]);
    expect(await t.database.db.select().from(notifications).where(eq(notifications.userId, poster.id))).toEqual([]);
    expect(await t.database.db.select().from(uploads).where(eq(uploads.ownerId, poster.id))).toEqual([]);
    expect(await storage.get(file?.storageKey ?? "")).toBeNull();
    // The photo's public image goes with its original (docs/decisions/009-uploads-and-storage.md).
    expect(await storage.get(image)).toBeNull();
    const [review] = await t.database.db.select().from(reviews).where(eq(reviews.reviewerId, poster.id));
    expect(review).toMatchObject({ rating: 4, comment: null });
    expect(await t.database.db.select().from(messages).where(eq(messages.senderId, poster.id))).toHaveLength(1);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, poster.id));
    expect(audit.map((a) => a.action)).toContain("account.deleted");

    // Money: nothing moved, nothing lost; every invariant of the ledger still holds.
    expect(await queryRows(t.database.db, sql`select count(*)::int as n, sum(amount_cents)::bigint as total from ledger_entries`)).toEqual(ledgerBefore);
    expect(
      await queryRows(t.database.db, sql`select sum(amount_cents)::bigint as total from ledger_entries where account = ${`provider:${provider.id}:balance`}`),
    ).toEqual(balanceBefore);
    await expectLedgerInvariants();
    // The provider still sees the task they did, with the poster shown as deleted.
    const seen = await call(t, provider, { url: `/api/tasks/${done.task.id}` });
    expect(seen.statusCode).toBe(200);
    expect(seen.body).not.toContain("Dana");
    expect(seen.body).not.toContain(poster.email);
  });

  it("cancels a request still waiting for its provider's answer, and the provider is told", async () => {
    const poster = await withPassword(await createPoster(t));
    const sam = await createProvider(t);
    const requested = await postRequestTask(t, poster, sam);
    expect((await remove(poster)).statusCode).toBe(200);
    expect((await taskRow(t, requested.id)).status).toBe("cancelled");
    const told = await t.database.db.select({ kind: notifications.kind }).from(notifications).where(eq(notifications.userId, sam.id));
    expect(told.map((n) => n.kind)).toContain("request_cancelled");
  });

  it("declines the requests waiting for a provider who closes their account, as the posters chose", async () => {
    const sam = await withPassword(await createProvider(t, { firstName: "Sam", lastName: "Leaving" }));
    const poster = await createPoster(t);
    const opens = await postRequestTask(t, poster, sam);
    const cancels = await postRequestTask(t, poster, sam, { fallback: "cancel" });
    expect((await remove(sam)).statusCode).toBe(200);
    expect((await taskRow(t, opens.id)).status).toBe("open");
    expect((await taskRow(t, cancels.id)).status).toBe("cancelled");
    const told = await t.database.db
      .select({ kind: notifications.kind, body: notifications.body })
      .from(notifications)
      .where(and(eq(notifications.userId, poster.id), eq(notifications.kind, "request_ended")));
    expect(told).toHaveLength(2);
    for (const notice of told) expect(notice.body).toContain('Sam L. declined your request for "');
    for (const notice of told) expect(notice.body).toContain('Their reason: "I closed my Errandly account."');
  });

  it("a deleted provider's profile is emptied and off the directory", async () => {
    const provider = await withPassword(await createProvider(t, { firstName: "Quinn", lastName: "Quit" }));
    expect((await remove(provider)).statusCode).toBe(200);
    const [profile] = await t.database.db.select().from(providerProfiles).where(eq(providerProfiles.userId, provider.id));
    expect(profile).toMatchObject({ fullName: "Deleted user", phone: "", address: "", bio: "", verificationStatus: "rejected", idDocumentPath: null });
    const directory = await call(t, null, { url: "/api/providers" });
    expect(directory.body).not.toContain("Quinn");
    // A closed account has no public profile: the same 404 as an unknown id (decision 023).
    const publicProfile = await call(t, null, { url: `/api/users/${provider.id}/profile` });
    expect(publicProfile.statusCode).toBe(404);
  });

  it("a claim racing the deletion never leaves a claimed task of a deleted poster", async () => {
    const poster = await withPassword(await createPoster(t));
    const provider = await createProvider(t);
    const { task } = await taskAt(t, "open", { poster });
    const [deleted, claimed] = await Promise.all([remove(poster), transition(t, "claim", task.id, provider)]);
    const status = (await taskRow(t, task.id)).status;
    if (deleted.statusCode === 200) expect(status).toBe("cancelled");
    else {
      expect(deleted.statusCode).toBe(409);
      expect(claimed).not.toBeNull();
      expect(status).toBe("claimed");
    }
  });
});

