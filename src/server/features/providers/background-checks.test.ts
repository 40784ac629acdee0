import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, createUser, type TestUser, useTestApp } from "../../../../test/create-test-app.js";
import { createApplicant, createProvider, postTask, recordClearCheck, transition } from "../../../../test/fixtures/factory.js";
import { notifications } from "../../db/schema/chat.js";
import { backgroundChecks } from "../../db/schema/background-checks.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { emailOutbox } from "../../db/schema/site.js";
import { auditLog } from "../../db/schema/users.js";

// Background checks with the embedded "manual" adapter (docs/decisions/064-background-checks.md):
// an admin records a check done by hand; approval needs a clear one; "consider" pauses an approved
// provider. The Checkr adapter has its own file (checkr-background-checks.test.ts).

const t = await useTestApp();

const applicantWaiting = () => createApplicant(t);

const today = () => t.clock.now().toISOString().slice(0, 10);
const record = (admin: TestUser, userId: string, payload: object) =>
  call(t, admin, { method: "POST", url: `/api/admin/providers/${userId}/background-checks`, payload });
const approve = (admin: TestUser, userId: string) => call(t, admin, { method: "POST", url: `/api/admin/applications/${userId}/approve` });
const statusOf = async (userId: string) =>
  (await t.database.db.select({ status: providerProfiles.verificationStatus }).from(providerProfiles).where(eq(providerProfiles.userId, userId)))[0]?.status;
const actions = async (userId: string) =>
  (await t.database.db.select({ action: auditLog.action, actorId: auditLog.actorId }).from(auditLog).where(eq(auditLog.targetId, userId))).map((a) => a.action).sort();

describe("a manual background check", () => {
  it("is recorded by an admin with what, when, the result and who, audited, and shown to the applicant and the admin", async () => {
    const admin = await createUser(t, { role: "admin" });
    const applicant = await applicantWaiting();
    const res = await record(admin, applicant.id, { checkedWhat: "County criminal records, MD, 7 years", result: "clear", checkedOn: "2026-05-28" });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ adapter: "manual", state: "clear", checkedWhat: "County criminal records, MD, 7 years", reason: null, completedAt: "2026-05-28T00:00:00.000Z" });
    const [row] = await t.database.db.select().from(backgroundChecks).where(eq(backgroundChecks.userId, applicant.id));
    expect(row?.recordedBy).toBe(admin.id);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, applicant.id));
    expect(audit).toEqual([expect.objectContaining({ action: "background_check.record", actorId: admin.id, details: expect.objectContaining({ result: "clear", checkedOn: "2026-05-28" }) })]);

    const own = await call(t, applicant, { url: "/api/provider/profile" });
    expect(own.json().backgroundCheck).toMatchObject({ state: "clear", checkedWhat: "County criminal records, MD, 7 years" });
    const queue = await call(t, admin, { url: "/api/admin/applications/pending" });
    const listed = (queue.json() as { userId: string; backgroundCheck: { state: string } | null }[]).find((a) => a.userId === applicant.id);
    expect(listed?.backgroundCheck?.state).toBe("clear");
  });

  it("refuses a consider without a reason, a future date and someone who never applied, with clear messages", async () => {
    const admin = await createUser(t, { role: "admin" });
    const applicant = await applicantWaiting();
    const noReason = await record(admin, applicant.id, { checkedWhat: "County criminal records", result: "consider", checkedOn: today() });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().fieldErrors.reason).toMatch(/applicant is told/);
    const future = await record(admin, applicant.id, { checkedWhat: "County criminal records", result: "clear", checkedOn: "2026-06-02" });
    expect(future.statusCode).toBe(400);
    expect(future.json().fieldErrors.checkedOn).toMatch(/cannot be in the future/);
    const stranger = await createUser(t);
    const never = await record(admin, stranger.id, { checkedWhat: "County criminal records", result: "clear", checkedOn: today() });
    expect(never.statusCode).toBe(404);
    expect(never.json().message).toMatch(/has not applied/);
    expect(await t.database.db.select().from(backgroundChecks).where(eq(backgroundChecks.userId, applicant.id))).toEqual([]);
  });

  it("answers 404 on the Checkr webhook, as no service is connected", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/background-checks/checkr/webhook", headers: { "content-type": "application/json", "x-checkr-signature": "0".repeat(64) }, payload: "{}" });
    expect(res.statusCode).toBe(404);
    const start = await call(t, await createUser(t, { role: "admin" }), { method: "POST", url: `/api/admin/providers/${(await applicantWaiting()).id}/background-checks/start` });
    expect(start.statusCode).toBe(409);
    expect(start.json().message).toMatch(/Record a check/);
  });
});

describe("approval needs a clear check", () => {
  it("refuses with 409 and a sentence without a check or with consider, and approves with a clear one", async () => {
    const admin = await createUser(t, { role: "admin" });
    const applicant = await applicantWaiting();
    const none = await approve(admin, applicant.id);
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe("This applicant has no background check yet. Record a clear check (or start one) before approving them.");
    expect(await statusOf(applicant.id)).toBe("pending");

    expect((await record(admin, applicant.id, { checkedWhat: "County criminal records", result: "consider", checkedOn: today(), reason: "A 2019 record in Anne Arundel County." })).statusCode).toBe(201);
    const consider = await approve(admin, applicant.id);
    expect(consider.statusCode).toBe(409);
    expect(consider.json().message).toMatch(/needs review/);
    expect(await statusOf(applicant.id)).toBe("pending");
    expect(await actions(applicant.id)).toEqual(["background_check.record"]);

    await recordClearCheck(t, admin, applicant.id);
    expect((await approve(admin, applicant.id)).statusCode).toBe(200);
    expect(await statusOf(applicant.id)).toBe("approved");

    const profile = await call(t, null, { url: `/api/users/${applicant.id}/profile` });
    expect(profile.json().backgroundCheckedAt).toBe(`${today()}T00:00:00.000Z`);
  });

  it("keeps the public profile silent for someone not approved", async () => {
    const admin = await createUser(t, { role: "admin" });
    const applicant = await applicantWaiting();
    await recordClearCheck(t, admin, applicant.id);
    const profile = await call(t, null, { url: `/api/users/${applicant.id}/profile` });
    expect(profile.json().backgroundCheckedAt).toBeNull();
  });
});

describe("a check that comes back consider on an approved provider", () => {
  it("pauses them: back under review, told why and how to dispute, and unable to claim until approved again", async () => {
    const admin = await createUser(t, { role: "admin" });
    const provider = await createProvider(t);
    const poster = await createUser(t);
    const task = await postTask(t, poster);
    const reason = "A 2019 record in Anne Arundel County needs a closer look.";
    expect((await record(admin, provider.id, { checkedWhat: "County criminal records, MD", result: "consider", checkedOn: today(), reason })).statusCode).toBe(201);

    expect(await statusOf(provider.id)).toBe("under_review");
    expect(await actions(provider.id)).toEqual(["background_check.record", "provider_application.pause"]);
    const notes = await t.database.db.select().from(notifications).where(and(eq(notifications.userId, provider.id), eq(notifications.kind, "moderation")));
    expect(notes).toEqual([expect.objectContaining({ title: "Your provider account is paused", body: expect.stringContaining(reason) })]);
    expect(notes[0]?.body).toContain("dispute it by writing to us through the contact form");
    const mails = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, provider.email));
    expect(mails.map((m) => m.subject)).toContain("Your provider account is paused");
    expect(await transition(t, "claim", task.id, provider)).toBeNull();
    const own = await call(t, provider, { url: "/api/provider/profile" });
    expect(own.json().backgroundCheck).toMatchObject({ state: "consider", reason });
    const profile = await call(t, null, { url: `/api/users/${provider.id}/profile` });
    expect(profile.json().backgroundCheckedAt).toBeNull();

    await recordClearCheck(t, admin, provider.id);
    expect((await approve(admin, provider.id)).statusCode).toBe(200);
    expect(await transition(t, "claim", task.id, provider)).not.toBeNull();
  });
});
