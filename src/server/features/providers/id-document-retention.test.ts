import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, createUser, type TestUser, useTestApp } from "../../../../test/create-test-app.js";
import { tinyPdf, tinyPng } from "../../../../test/fixtures/test-files.js";
import { providerProfiles, uploads } from "../../db/schema/providers.js";
import { ID_DOCUMENT_RETENTION_DAYS, QUOTA_MESSAGE, UNATTACHED_QUOTA_BYTES, UNATTACHED_TTL_MS } from "./uploads.js";
import { recordClearCheck } from "../../../../test/fixtures/factory.js";

// The privacy policy promises ID documents are deleted 90 days after an application is rejected;
// this file moves its own clock by months, so it has an app of its own.
const t = await useTestApp();
const DAY = 86_400_000;

async function upload(user: TestUser, kind: "id_document" | "profile_photo"): Promise<string> {
  const url = (await call(t, user, { method: "POST", url: "/api/objects/upload", payload: { kind } })).json().uploadURL;
  const body = kind === "id_document" ? tinyPdf() : tinyPng();
  expect((await call(t, user, { method: "PUT", url, payload: body, headers: { "content-type": "application/octet-stream" } })).statusCode).toBe(200);
  const set =
    kind === "id_document"
      ? await call(t, user, { method: "PUT", url: "/api/provider/set-id-document", payload: { idDocumentURL: url } })
      : await call(t, user, { method: "PUT", url: "/api/provider/set-profile-photo", payload: { profilePhotoURL: url } });
  return set.json().objectPath;
}

async function apply(user: TestUser): Promise<string> {
  const idDocumentUrl = await upload(user, "id_document");
  const res = await call(t, user, {
    method: "POST",
    url: "/api/provider/apply",
    payload: {
      fullName: "Pat Applicant",
      email: user.email,
      phone: "(410) 555-0199",
      address: "12 Harbor Rd",
      city: "Annapolis",
      state: "MD",
      zipCode: "21401",
      serviceTypes: ["errands"],
      idDocumentUrl,
      profilePhotoUrl: await upload(user, "profile_photo"),
      availability: { monday: true },
      bio: "Reliable.",
      agreeTerms: true,
    },
  });
  expect(res.statusCode).toBe(201);
  return idDocumentUrl;
}

const stored = async (path: string) =>
  (await t.database.db.select({ id: uploads.id }).from(uploads).where(eq(uploads.id, path.replace("/objects/", "")))).length === 1;

describe("ID document retention", () => {
  it("deletes unused files a day after upload, rejected applicants' ID documents after 90 days, and keeps current ones", async () => {
    const admin = await createUser(t, { role: "admin" });
    const rejected = await createUser(t);
    const approved = await createUser(t);
    const neverApplied = await createUser(t);
    const rejectedDoc = await apply(rejected);
    const approvedDoc = await apply(approved);
    const unusedDoc = await upload(neverApplied, "id_document");
    const decide = (user: TestUser, action: "approve" | "reject") =>
      call(t, admin, { method: "POST", url: `/api/admin/applications/${user.id}/${action}`, payload: action === "reject" ? { reason: "Blurry" } : {} });
    expect((await decide(rejected, "reject")).statusCode).toBe(200);
    await recordClearCheck(t, admin, approved.id);
    expect((await decide(approved, "approve")).statusCode).toBe(200);

    t.clock.advance(UNATTACHED_TTL_MS - 60_000);
    await t.app.ctx.scheduler.runAll();
    expect([await stored(rejectedDoc), await stored(approvedDoc), await stored(unusedDoc)]).toEqual([true, true, true]);
    t.clock.advance(2 * 60_000);
    await t.app.ctx.scheduler.runAll();
    expect([await stored(rejectedDoc), await stored(approvedDoc), await stored(unusedDoc)]).toEqual([true, true, false]);

    t.clock.advance((ID_DOCUMENT_RETENTION_DAYS - 2) * DAY);
    await t.app.ctx.scheduler.runAll();
    expect([await stored(rejectedDoc), await stored(approvedDoc)]).toEqual([true, true]);

    t.clock.advance(2 * DAY);
    await t.app.ctx.scheduler.runAll();
    expect([await stored(rejectedDoc), await stored(approvedDoc)]).toEqual([false, true]);
    const [profile] = await t.database.db.select().from(providerProfiles).where(eq(providerProfiles.userId, rejected.id));
    expect(profile).toMatchObject({ verificationStatus: "rejected", idDocumentPath: null });

    // Sessions idle for 91 days have ended: read as a fresh admin. The file itself is gone too.
    const laterAdmin = await createUser(t, { role: "admin" });
    expect((await call(t, laterAdmin, { url: rejectedDoc })).statusCode).toBe(404);
    expect((await call(t, laterAdmin, { url: approvedDoc })).statusCode).toBe(200);
  });

  it("refuses an upload past 100 MB of the owner's unattached files with 413 and a message, and stores nothing", async () => {
    const user = await createUser(t);
    const [existing] = await t.database.db
      .insert(uploads)
      .values({
        ownerId: user.id,
        kind: "id_document",
        tokenHash: `quota-${user.id}`,
        storageKey: `objects/${user.id}`,
        contentType: "application/pdf",
        // Stands for files already stored: the quota counts bytes, not the files on disk.
        sizeBytes: UNATTACHED_QUOTA_BYTES - 10,
        expiresAt: t.clock.now(),
        createdAt: t.clock.now(),
      })
      .returning();
    if (!existing) throw new Error("row not inserted");
    const url = (await call(t, user, { method: "POST", url: "/api/objects/upload", payload: { kind: "id_document" } })).json().uploadURL;
    const res = await call(t, user, { method: "PUT", url, payload: tinyPdf(), headers: { "content-type": "application/octet-stream" } });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: QUOTA_MESSAGE });
    const rows = await t.database.db.select().from(uploads).where(eq(uploads.ownerId, user.id));
    expect(rows.filter((r) => r.sizeBytes !== null).map((r) => r.id)).toEqual([existing.id]);

    // Another user is not affected by this one's files.
    const other = await createUser(t);
    await upload(other, "id_document");
  });
});
