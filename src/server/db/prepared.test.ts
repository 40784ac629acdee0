import { and, asc, desc, eq, gte, inArray, lte, ne, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { useTestApp, type TestUser } from "../../../test/create-test-app.js";
import { createPoster, createProvider, postTask, taskAt } from "../../../test/fixtures/factory.js";
import { hashToken, sessionByToken } from "../features/auth/sessions.js";
import { contentPlaceholders } from "../features/chat/masked-content.js";
import { CHAT_RATE_WINDOW_MS, insertMessageStatement, participantChatStatement } from "../features/chat/repository.js";
import { candidateStatements } from "../features/job-alerts/repository.js";
import { recordTransactionStatement } from "../features/payments/ledger.js";
import { boardStatementWithValues } from "../features/tasks/board-query.js";
import { openTasksQuerySchema } from "../../shared/tasks.js";
import { taskDetailStatement } from "../features/tasks/task-views.js";
import { insertTaskStatement, updateByTransition } from "../features/tasks/transition-statements.js";
import { insertUserMail } from "../adapters/mail/outbox.js";
import { quietNoticeStatement } from "../notify.js";
import { hitPlaceholders, hitStatement } from "../plugins/rate-limit.js";
import { announceStatement } from "../task-updates.js";
import { emailOptOuts, messages } from "./schema/chat.js";
import { jobAlerts } from "./schema/job-alerts.js";
import { ledgerEntries, ledgerTransactions } from "./schema/payments.js";
import { providerProfiles } from "./schema/providers.js";
import { emailOutbox } from "./schema/site.js";
import { taskPhotos } from "./schema/task-photos.js";
import { tasks } from "./schema/tasks.js";
import { rateLimits, sessions, users } from "./schema/users.js";

// Every statement of db/prepared.ts skips drizzle's row mapping; each one here answers exactly what
// drizzle's query builder answers for the same rows (keys in camelCase, the same value types), so a
// caller cannot tell which of the two read the row (docs/decisions/039-hot-statements-written-once.md).

const t = await useTestApp();
const db = t.database.db;

const tokenOf = (user: TestUser) => user.cookie.slice(user.cookie.indexOf("=") + 1);

describe("prepared statements answer as drizzle does", () => {
  it("session_by_token", async () => {
    const poster = await createPoster(t);
    const now = t.clock.now();
    const mine = await sessionByToken.rows(db, { tokenHash: hashToken(tokenOf(poster)), now: now.toISOString() });
    const drizzles = await db
      .select(sessionByToken.columns)
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.tokenHash, hashToken(tokenOf(poster))));
    expect(mine).toHaveLength(1);
    expect(mine).toEqual(drizzles);
  });

  it("task_detail, with and without a provider", async () => {
    const open = await postTask(t, await createPoster(t));
    const claimed = await taskAt(t, "claimed");
    const poster = alias(users, "poster");
    const provider = alias(users, "provider");
    for (const id of [open.id, claimed.task.id]) {
      const mine = await taskDetailStatement.rows(db, { id });
      const drizzles = await db
        .select(taskDetailStatement.columns)
        .from(tasks)
        .innerJoin(poster, eq(poster.id, tasks.userId))
        .leftJoin(provider, eq(provider.id, tasks.providerId))
        .where(eq(tasks.id, id));
      expect(mine).toHaveLength(1);
      expect(mine).toEqual(drizzles);
    }
  });

  it("task_insert and a transition's update return the row drizzle reads back", async () => {
    const poster = await createPoster(t);
    const provider = await createProvider(t);
    const now = t.clock.now();
    const [inserted] = await insertTaskStatement.rows(db, {
      userId: poster.id, hiringMode: "first_to_claim", title: "Carry a sofa", description: "Up two floors", category: "moving", urgency: "standard",
      budgetCents: 6000, urgentFeeCents: 0, serviceFeeCents: 600, totalCents: 6600, providerShareCents: 5100, platformCommissionCents: 900, scheduledDate: null,
      location: "1 Main St", city: "Annapolis", state: "MD", lat: 38.97, lon: -76.49,
      startLocation: null, startCity: null, startState: null, startLat: null, startLon: null,
      endLocation: null, endCity: null, endState: null, endLat: null, endLon: null,
      stops: null, approxLat: 38.97, approxLon: -76.49, now: now.toISOString(),
      status: "open", requestedProviderId: null, requestExpiresAt: null, requestFallback: null,
      timeZone: "America/New_York", durationMinutes: 120, estimatedMinutes: null, providerId: null, paymentDeadline: null, claimedAt: null,
    });
    if (!inserted) throw new Error("no row inserted");
    expect([inserted]).toEqual(await db.select().from(tasks).where(eq(tasks.id, inserted.id)));
    const [user] = await db.select().from(users).where(eq(users.id, provider.id));
    if (!user) throw new Error("provider vanished");
    const claimed = await updateByTransition(t.app.ctx, "claim", inserted.id, { kind: "person", user: { ...user, sessionId: "", firstFactor: null, secondFactor: null, provenAt: null } }, now);
    expect(claimed?.providerId).toBe(provider.id);
    expect([claimed]).toEqual(await db.select().from(tasks).where(eq(tasks.id, inserted.id)));
  });

  it("the job board's page", async () => {
    await postTask(t, await createPoster(t), { budgetCents: 7300 });
    await postTask(t, await createPoster(t), { budgetCents: 2500 });
    const { statement, values } = boardStatementWithValues({ db, now: t.clock.now }, openTasksQuerySchema.parse({}));
    const mine = await statement.rows(db, values);
    const photo = db.select({ id: taskPhotos.id, alt: taskPhotos.alt }).from(taskPhotos).where(eq(taskPhotos.taskId, tasks.id)).orderBy(taskPhotos.seq).limit(1).as("photo");
    const drizzles = await db
      .select(statement.columns)
      .from(tasks)
      .innerJoin(users, eq(users.id, tasks.userId))
      .leftJoinLateral(photo, sql`true`)
      .where(eq(tasks.status, "open"))
      .orderBy(desc(tasks.createdAt), desc(tasks.id))
      .limit(30);
    expect(mine.length).toBeGreaterThan(1);
    // `snapshot` is the server's transaction position (pg_current_snapshot()), which another
    // file's transactions on the same server move between the two reads: its form, not its value.
    const apart = (rows: typeof mine) => rows.map(({ snapshot, ...row }) => ({ ...row, snapshot: String(snapshot).replace(/^\d+:\d+:[\d,]*$/, "xmin:xmax:xip") }));
    expect(apart(mine)).toEqual(apart(drizzles));
  });

  it("chat_for_participant and chat_insert_message", async () => {
    const { task, poster, provider } = await taskAt(t, "claimed");
    const now = t.clock.now();
    const [sent] = await insertMessageStatement.rows(db, {
      ...hitPlaceholders(`chat:${poster.id}`, CHAT_RATE_WINDOW_MS, now),
      taskId: task.id,
      senderId: poster.id,
      ...contentPlaceholders("On my way?"),
      now: now.toISOString(),
    });
    if (!sent?.id) throw new Error("no message stored");
    const { notified, rateCount, rateWindowStartedAt, ...stored } = sent as typeof sent & { notified: unknown };
    // pg_notify returns void, which node-postgres reads as an empty string.
    expect(notified).toBe("");
    // The same statement counted the message against the sender's limit.
    expect({ rateCount, rateWindowStartedAt }).toEqual({ rateCount: 1, rateWindowStartedAt: now });
    expect([stored]).toEqual(await db.select().from(messages).where(eq(messages.id, sent.id)));
    const mine = await participantChatStatement.rows(db, { taskId: task.id, viewerId: provider.id });
    const drizzles = await db
      .select({
        userId: tasks.userId,
        providerId: tasks.providerId,
        id: messages.id,
        senderId: messages.senderId,
        recipientId: messages.recipientId,
        content: messages.content,
        read: messages.read,
        createdAt: messages.createdAt,
      })
      .from(tasks)
      .leftJoin(messages, and(eq(messages.taskId, tasks.id), or(eq(messages.senderId, provider.id), eq(messages.recipientId, provider.id))))
      .where(eq(tasks.id, task.id))
      .orderBy(asc(messages.createdAt), asc(messages.id));
    expect(mine).toHaveLength(1);
    expect(mine).toEqual(drizzles);
  });

  it("job_alert_candidates, with and without longitude bounds", async () => {
    const provider = await createProvider(t);
    const poster = await createPoster(t);
    await db.insert(jobAlerts).values({ userId: provider.id, categories: ["errands"], near: "21401", lat: 38.97, lon: -76.49, radiusMiles: 25, minBudgetCents: 1000 });
    await db.insert(emailOptOuts).values({ userId: provider.id, kind: "task_alert" });
    const values = { minLat: 38, maxLat: 40, minLon: -77, maxLon: -76, category: "errands", budgetCents: 5000, posterId: poster.id };
    const drizzles = await db
      .select({
        userId: jobAlerts.userId,
        lat: jobAlerts.lat,
        lon: jobAlerts.lon,
        radiusMiles: jobAlerts.radiusMiles,
        emailOff: sql<boolean>`exists (select 1 from ${emailOptOuts} o where o.user_id = ${jobAlerts.userId} and o.kind = 'task_alert')`,
      })
      .from(jobAlerts)
      .innerJoin(providerProfiles, and(eq(providerProfiles.userId, jobAlerts.userId), eq(providerProfiles.verificationStatus, "approved")))
      .where(and(gte(jobAlerts.lat, 38), lte(jobAlerts.lat, 40), sql`'errands' = any(${jobAlerts.categories})`, ne(jobAlerts.userId, poster.id)));
    expect(drizzles).toEqual([{ userId: provider.id, lat: 38.97, lon: -76.49, radiusMiles: 25, emailOff: true }]);
    expect(await candidateStatements.lonBox.rows(db, values)).toEqual(drizzles);
    expect(await candidateStatements.anyLon.rows(db, values)).toEqual(drizzles);
  });

  it("ledger_record_transaction, once per kind and key", async () => {
    const { task, poster } = await taskAt(t, "open");
    const values = {
      kind: "capture", key: `prepared-test-${task.id}`, taskId: task.id, createdBy: poster.id, memo: null,
      now: t.clock.now().toISOString(), accounts: ["external:card", `escrow:${task.id}`], amounts: [-500, 500],
    };
    const mine = await recordTransactionStatement.rows(db, values);
    const drizzles = await db
      .select({ transactionId: ledgerEntries.transactionId })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(eq(ledgerTransactions.idempotencyKey, values.key))
      .orderBy(asc(ledgerEntries.id));
    expect(mine).toHaveLength(2);
    expect([...mine].sort((a, b) => a.transactionId.localeCompare(b.transactionId))).toEqual(drizzles);
    expect(await recordTransactionStatement.rows(db, values)).toEqual([]);
  });

  it("notify_user, notify_user_quiet and announce_task_update", async () => {
    const poster = await createPoster(t);
    const values = { userId: poster.id, kind: "task_claimed", title: "Claimed", body: "Someone claimed it", taskId: null, createdAt: null, payload: "{}", url: "/dashboard" };
    const mail = { userId: poster.id, subject: "Claimed", text: "Someone claimed it", kind: "task_claimed" };
    const alongside = { name: "prepared_test_mail", ctes: sql`nothing as (select 1)`, select: sql`1 as one`, values: {} };
    const mailedTo = await insertUserMail(db, mail, "stored", alongside);
    expect([{ mailedTo }]).toEqual(await db.select({ mailedTo: emailOutbox.to }).from(emailOutbox).where(eq(emailOutbox.to, poster.email)));
    const quiet = await quietNoticeStatement.rows(db, values);
    // No device of the poster's is subscribed: no push, so no push NOTIFY either.
    expect(quiet).toEqual(await db.select({ pgNotify: sql<string>`''`, pushed: sql<string | null>`null` }).from(users).where(eq(users.id, poster.id)));
    const task = await postTask(t, poster);
    const announced = await announceStatement.rows(db, { taskId: task.id, event: "claim", board: null, also: null });
    expect(announced).toEqual(await db.select({ pgNotify: sql<string>`''` }).from(tasks).where(eq(tasks.id, task.id)));
  });

  it("rate_limit_hit", async () => {
    const at = t.clock.now();
    const values = { key: "prepared-test", at: at.toISOString(), windowStart: new Date(at.getTime() - 60_000).toISOString() };
    await hitStatement.rows(db, values);
    const mine = await hitStatement.rows(db, values);
    const drizzles = await db.select({ count: rateLimits.count, windowStartedAt: rateLimits.windowStartedAt }).from(rateLimits).where(inArray(rateLimits.key, [values.key]));
    expect(mine).toEqual([{ count: 2, windowStartedAt: at }]);
    expect(mine).toEqual(drizzles);
  });
});
