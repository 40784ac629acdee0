import { eq } from "drizzle-orm";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, describe, expect, it } from "vitest";
import { call, createUser, useTestApp } from "../../../../test/create-test-app.js";
import { createMailer } from "../../adapters/mail/create-mailer.js";
import { MAIL_MAX_ATTEMPTS, retryDelayMs, STUCK_SENDING_MS } from "../../adapters/mail/smtp-mailer.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { emailOutbox } from "../../db/schema/site.js";

// The SMTP mail adapter against a local SMTP server: a decision is stored in the outbox in its
// transaction, the "mail:deliver" job sends it; a refusing server leaves it queued with the error.

interface Received {
  to: string[];
  data: string;
}
const received: Received[] = [];
let refuse = false;

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onRcptTo(address, _session, callback) {
    if (refuse) return callback(new Error("550 mailbox unavailable"));
    return callback();
  },
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => {
      received.push({ to: session.envelope.rcptTo.map((r) => r.address), data: Buffer.concat(chunks).toString("utf8") });
      callback();
    });
  },
});
await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));
const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;

const t = await useTestApp({ SMTP_URL: smtpUrl });

async function rejectedApplicant(reason: string) {
  const admin = await createUser(t, { role: "admin" });
  const user = await createUser(t);
  await t.database.db.insert(providerProfiles).values({
    userId: user.id,
    fullName: "A B",
    email: user.email,
    phone: "4105550100",
    address: "1 St",
    city: "Annapolis",
    state: "MD",
    zipCode: "21401",
    bio: "bio",
  });
  const res = await call(t, admin, { method: "POST", url: `/api/admin/applications/${user.id}/reject`, payload: { reason } });
  expect(res.statusCode).toBe(200);
  return user;
}

describe("e-mail over SMTP", () => {
  it("queues the decision e-mail and the mail:deliver job sends it", async () => {
    const user = await rejectedApplicant("Photo does not match ID");
    const [queued] = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, user.email));
    expect(queued?.status).toBe("queued");

    await t.app.ctx.scheduler.runAll();
    const mail = received.find((r) => r.to.includes(user.email));
    expect(mail?.data).toMatch(/Subject: Your provider application was not approved/);
    expect(mail?.data).toMatch(/Photo does not match ID/);
    const [sent] = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, user.email));
    expect(sent).toMatchObject({ status: "sent", error: null });
  });

  it("leaves a mail queued with the error when the server refuses it, and retries it after the backoff", async () => {
    refuse = true;
    const user = await rejectedApplicant("Blurry");
    await t.app.ctx.scheduler.runAll();
    const [failed] = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, user.email));
    expect(failed).toMatchObject({ status: "queued", attempts: 1 });
    expect(failed?.error).toMatch(/550|mailbox unavailable/);
    expect(failed?.nextAttemptAt?.getTime()).toBe(t.app.ctx.now().getTime() + retryDelayMs(1));
    expect(received.some((r) => r.to.includes(user.email))).toBe(false);

    refuse = false;
    // Not due yet: the next pass leaves it alone.
    await t.app.ctx.scheduler.runAll();
    expect(received.some((r) => r.to.includes(user.email))).toBe(false);
    t.clock.advance(retryDelayMs(1));
    await t.app.ctx.scheduler.runAll();
    expect(received.some((r) => r.to.includes(user.email))).toBe(true);
    const [sent] = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, user.email));
    expect(sent).toMatchObject({ status: "sent", attempts: 1, nextAttemptAt: null, error: null });
  });

  it("gives up after MAIL_MAX_ATTEMPTS failures and marks the mail failed", async () => {
    refuse = true;
    const user = await rejectedApplicant("Expired ID");
    for (let attempt = 1; attempt <= MAIL_MAX_ATTEMPTS; attempt += 1) {
      await t.app.ctx.scheduler.runAll();
      t.clock.advance(retryDelayMs(attempt));
    }
    const [gaveUp] = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, user.email));
    expect(gaveUp).toMatchObject({ status: "failed", attempts: MAIL_MAX_ATTEMPTS, nextAttemptAt: null });
    refuse = false;
    await t.app.ctx.scheduler.runAll();
    expect(received.some((r) => r.to.includes(user.email))).toBe(false);
  });

  it("puts a mail stuck in sending for more than 10 minutes back in the queue", async () => {
    let now = new Date("2026-06-01T12:00:00.000Z");
    const mailer = await createMailer({ db: t.database.db, smtpUrl, from: "Errandly <no-reply@errandly.app>", log: t.app.log, now: () => now });
    const [row] = await t.database.db
      .insert(emailOutbox)
      .values({ to: "stuck@example.test", subject: "Stuck", text: "body", kind: "application_decided", status: "sending", claimedAt: now })
      .returning();
    if (!row) throw new Error("row not inserted");
    now = new Date(now.getTime() + STUCK_SENDING_MS - 1000);
    await mailer.deliverQueued();
    expect(received.some((r) => r.to.includes("stuck@example.test"))).toBe(false);
    now = new Date(now.getTime() + 2000);
    await mailer.deliverQueued();
    expect(received.some((r) => r.to.includes("stuck@example.test"))).toBe(true);
    const [after] = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.id, row.id));
    expect(after?.status).toBe("sent");
    mailer.close();
  });
});
