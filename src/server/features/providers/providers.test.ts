import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, createUser, type TestUser, useTestApp } from "../../../../test/create-test-app.js";
import { HIDDEN } from "../../contact-masking.js";
import { notifications } from "../../db/schema/chat.js";
import { providerProfiles, uploads } from "../../db/schema/providers.js";
import { emailOutbox } from "../../db/schema/site.js";
import { reviews } from "../../db/schema/reviews.js";
import { auditLog, users } from "../../db/schema/users.js";
import { recordClearCheck, taskAt } from "../../../../test/fixtures/factory.js";
import { tinyPdf, tinyPng } from "../../../../test/fixtures/test-files.js";

const t = await useTestApp();

type Kind = "id_document" | "profile_photo";

async function uploadUrl(user: TestUser, kind?: Kind): Promise<string> {
  const res = await call(t, user, { method: "POST", url: "/api/objects/upload", payload: kind ? { kind } : {} });
  expect(res.statusCode).toBe(200);
  return res.json().uploadURL;
}

function put(user: TestUser, url: string, body: Buffer, contentType = "image/png") {
  return call(t, user, { method: "PUT", url, payload: body, headers: { "content-type": contentType } });
}

function setFile(user: TestUser, kind: Kind, url: string) {
  return kind === "id_document"
    ? call(t, user, { method: "PUT", url: "/api/provider/set-id-document", payload: { idDocumentURL: url } })
    : call(t, user, { method: "PUT", url: "/api/provider/set-profile-photo", payload: { profilePhotoURL: url } });
}

async function uploadFile(user: TestUser, kind: Kind, body: Buffer): Promise<string> {
  const url = await uploadUrl(user, kind);
  expect((await put(user, url, body)).statusCode).toBe(200);
  const set = await setFile(user, kind, url);
  expect(set.statusCode).toBe(200);
  return set.json().objectPath;
}

async function validApplication(user: TestUser) {
  return {
    fullName: "Pat Applicant",
    email: user.email,
    phone: "(410) 555-0199",
    address: "12 Harbor Rd",
    city: "Annapolis",
    state: "md",
    zipCode: "21401",
    serviceTypes: ["errands", "pet"],
    idDocumentUrl: await uploadFile(user, "id_document", tinyPdf()),
    profilePhotoUrl: await uploadFile(user, "profile_photo", tinyPng()),
    availability: { monday: true, sunday: false },
    bio: "Reliable and friendly.",
    agreeTerms: true,
  };
}

async function applicant() {
  const user = await createUser(t);
  const body = await validApplication(user);
  const res = await call(t, user, { method: "POST", url: "/api/provider/apply", payload: body });
  expect(res.statusCode).toBe(201);
  return { user, body };
}

const countRows = async (table: typeof uploads | typeof providerProfiles | typeof auditLog) =>
  (await t.database.db.select({ n: count() }).from(table))[0]?.n ?? 0;

describe("uploads", () => {
  it("stores a checked file and serves an ID document only to its owner and admins, as an attachment", async () => {
    const owner = await createUser(t);
    const path = await uploadFile(owner, "id_document", tinyPdf());
    expect(path).toMatch(/^\/objects\/[0-9a-f-]{36}$/);

    const mine = await call(t, owner, { url: path });
    expect(mine.statusCode).toBe(200);
    expect(mine.headers["content-type"]).toBe("application/pdf");
    expect(mine.headers["content-disposition"]).toMatch(/^attachment/);
    expect(mine.headers["x-content-type-options"]).toBe("nosniff");
    expect(mine.rawPayload.equals(tinyPdf())).toBe(true);

    const admin = await createUser(t, { role: "admin" });
    expect((await call(t, admin, { url: `/api${path}` })).statusCode).toBe(200);
    expect((await call(t, await createUser(t), { url: path })).statusCode).toBe(404);
    expect((await call(t, null, { url: path })).statusCode).toBe(404);
    expect((await call(t, owner, { url: "/objects/00000000-0000-4000-8000-000000000000" })).statusCode).toBe(404);
  });

  it("refuses a second PUT to a used URL, an expired URL and another user's URL", async () => {
    const owner = await createUser(t);
    const url = await uploadUrl(owner, "profile_photo");
    expect((await put(owner, url, tinyPng())).statusCode).toBe(200);
    const again = await put(owner, url, tinyPng());
    expect(again.statusCode).toBe(410);
    expect(again.json().message).toMatch(/expired or was already used/);
    // The upload URL is not a way to read the file back.
    expect((await call(t, owner, { url })).statusCode).toBe(404);

    const late = await uploadUrl(owner, "profile_photo");
    t.clock.advance(10 * 60_000 + 1);
    expect((await put(owner, late, tinyPng())).statusCode).toBe(410);

    const stolen = await uploadUrl(owner, "profile_photo");
    expect((await put(await createUser(t), stolen, tinyPng())).statusCode).toBe(410);
    expect((await call(t, null, { method: "PUT", url: stolen, payload: tinyPng(), headers: { "content-type": "image/png" } })).statusCode).toBe(401);
  });

  it.each([
    ["an oversized photo", "profile_photo", Buffer.concat([tinyPng(), Buffer.alloc(5_242_880)]), "image/png", 413, "This file is larger than 5 MB. Choose a smaller file and upload it again."],
    ["a PDF as a photo", "profile_photo", tinyPdf(), "image/png", 415, "This file is not a JPEG, PNG or WebP file. Choose a file in one of those formats and upload it again."],
    ["an executable renamed .jpg", "id_document", Buffer.concat([Buffer.from("MZ"), Buffer.alloc(64)]), "image/jpeg", 415, "This file is not a JPEG, PNG, WebP or PDF file. Choose a file in one of those formats and upload it again."],
    ["an ELF binary", "id_document", Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.alloc(64)]), "image/jpeg", 415, "This file is not a JPEG, PNG, WebP or PDF file. Choose a file in one of those formats and upload it again."],
    ["HTML declared as image/jpeg", "profile_photo", Buffer.from("<html><script>alert(1)</script></html>"), "image/jpeg", 415, "This file is not a JPEG, PNG or WebP file. Choose a file in one of those formats and upload it again."],
    ["an empty file", "id_document", Buffer.alloc(0), "image/png", 400, "This file is empty. Choose another file and upload it again."],
  ] as const)("refuses %s and stores nothing", async (_name, kind, body, type, status, message) => {
    const owner = await createUser(t);
    const url = await uploadUrl(owner, kind);
    const res = await put(owner, url, body, type);
    expect(res.statusCode).toBe(status);
    // Each a full sentence saying what to do next (docs/product.md#verification).
    expect(res.json().message).toBe(message);
    const [row] = await t.database.db.select().from(uploads).where(eq(uploads.ownerId, owner.id));
    expect(row?.sizeBytes).toBeNull();
    expect((await setFile(owner, kind, url)).statusCode).toBe(400);
  });

  it("sweeps upload URLs never used but keeps completed uploads", async () => {
    const owner = await createUser(t);
    await uploadUrl(owner, "profile_photo");
    const kept = await uploadFile(owner, "profile_photo", tinyPng());
    t.clock.advance(10 * 60_000 + 3_600_000 + 1);
    await t.app.ctx.scheduler.runAll();
    const rows = await t.database.db.select().from(uploads).where(eq(uploads.ownerId, owner.id));
    expect(rows.map((r) => `/objects/${r.id}`)).toEqual([kept]);
  });

  it("gives an upload URL for a POST with no body at all, as for {} and {kind}", async () => {
    const owner = await createUser(t);
    const res = await call(t, owner, { method: "POST", url: "/api/objects/upload" });
    expect(res.statusCode).toBe(200);
    expect(res.json().uploadURL).toMatch(/^\/api\/objects\/put\//);
    const [row] = await t.database.db.select().from(uploads).where(eq(uploads.ownerId, owner.id));
    expect(row?.kind).toBeNull();
    expect((await call(t, owner, { method: "POST", url: "/api/objects/upload", payload: { kind: "passport" } })).statusCode).toBe(400);
  });

  it("applies the kind's rules to an upload made without a kind", async () => {
    const owner = await createUser(t);
    const url = await uploadUrl(owner);
    expect((await put(owner, url, tinyPdf(), "application/pdf")).statusCode).toBe(200);
    const asPhoto = await setFile(owner, "profile_photo", url);
    expect(asPhoto.statusCode).toBe(415);
    expect(await t.database.db.select().from(uploads).where(eq(uploads.ownerId, owner.id))).toHaveLength(0);
  });

  it("will not attach someone else's upload or an unknown URL", async () => {
    const owner = await createUser(t);
    const url = await uploadUrl(owner, "id_document");
    await put(owner, url, tinyPdf(), "application/pdf");
    expect((await setFile(await createUser(t), "id_document", url)).statusCode).toBe(404);
    expect((await setFile(owner, "id_document", "https://evil.example/x.pdf")).statusCode).toBe(400);
    // Shaped like an object key but not a UUID: refused as input, never sent to the database.
    for (const fake of [`/incoming/${"-".repeat(36)}`, `/incoming/${"a".repeat(36)}`]) {
      const res = await setFile(owner, "id_document", fake);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/idDocumentURL/);
    }
    expect((await setFile(owner, "profile_photo", url)).statusCode).toBe(400);
    expect((await call(t, null, { method: "POST", url: "/api/objects/upload", payload: {} })).statusCode).toBe(401);
  });
});

describe("applying", () => {
  it("stores the application as pending and answers the profile", async () => {
    const { user } = await applicant();
    const res = await call(t, user, { url: "/api/provider/profile" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      userId: user.id,
      verificationStatus: "pending",
      state: "MD",
      serviceTypes: ["errands", "pet"],
      availability: { monday: true, sunday: false },
      rejectionReason: null,
      hourlyRate: null,
      payoutsEnabled: false,
      user: { email: user.email },
    });
    const again = await call(t, user, { method: "POST", url: "/api/provider/apply", payload: await validApplication(user) });
    expect(again.statusCode).toBe(409);
    const none = await call(t, await createUser(t), { url: "/api/provider/profile" });
    expect([none.statusCode, none.json()]).toEqual([200, null]);
    expect((await call(t, null, { url: "/api/provider/profile" })).statusCode).toBe(401);
  });

  it.each([
    ["state", "Marylandia", /state/],
    ["state", "XX", /state/],
    ["zipCode", "2140", /zipCode/],
    ["phone", "555-01", /phone/],
    ["serviceTypes", [], /serviceTypes/],
    ["serviceTypes", ["hacking"], /serviceTypes/],
    ["agreeTerms", false, /agreeTerms/],
    ["email", "nope", /email/],
    ["fullName", "  ", /fullName/],
    ["bio", "", /bio/],
    ["idDocumentUrl", "https://evil.example/id.pdf", /idDocumentUrl/],
    ["profilePhotoUrl", "/objects/00000000-0000-4000-8000-000000000000", /profilePhotoUrl/],
  ])("refuses a bad %s (%j) with 400 naming it and stores nothing", async (field, value, message) => {
    const user = await createUser(t);
    const body = { ...(await validApplication(user)), [field]: value };
    const before = await countRows(providerProfiles);
    const res = await call(t, user, { method: "POST", url: "/api/provider/apply", payload: body });
    expect(res.statusCode).toBe(400);
    // The field is named where the form reads it; a message that is a whole sentence does not repeat it.
    const answer = res.json<{ message: string; fieldErrors?: Record<string, string> }>();
    expect(`${Object.keys(answer.fieldErrors ?? {}).join(" ")} ${answer.message}`).toMatch(message);
    expect(await countRows(providerProfiles)).toBe(before);
  });

  it("takes a state by name or code and keeps its code", async () => {
    for (const state of ["Maryland", " maryland ", "MD"]) {
      const user = await createUser(t);
      const res = await call(t, user, { method: "POST", url: "/api/provider/apply", payload: { ...(await validApplication(user)), state } });
      expect(res.statusCode, state).toBe(201);
      expect(res.json().state, state).toBe("MD");
    }
  });

  it("refuses a ZIP code of another state, or none, under the ZIP code field and stores nothing", async () => {
    // "Ma", what the two-letter box kept of "Maryland", is Massachusetts; 21401 is Annapolis, MD.
    const cases = [
      { state: "Ma", zipCode: "21401", message: "The ZIP code 21401 is in Maryland, not Massachusetts. Check the ZIP code, or choose Maryland as the state." },
      { state: "MD", zipCode: "00000", message: "We don't know the ZIP code 00000. Check it and try again." },
    ];
    for (const { state, zipCode, message } of cases) {
      const user = await createUser(t);
      const before = await countRows(providerProfiles);
      const res = await call(t, user, { method: "POST", url: "/api/provider/apply", payload: { ...(await validApplication(user)), state, zipCode } });
      expect(res.statusCode, zipCode).toBe(400);
      expect(res.json()).toEqual({ message, fieldErrors: { zipCode: message } });
      expect(await countRows(providerProfiles)).toBe(before);
    }
  });

  it("refuses another user's files and a photo sent as the ID document", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const body = await validApplication(user);
    const foreign = await validApplication(other);
    const stolen = await call(t, user, { method: "POST", url: "/api/provider/apply", payload: { ...body, idDocumentUrl: foreign.idDocumentUrl } });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().message).toMatch(/idDocumentUrl/);
    const swapped = await call(t, user, { method: "POST", url: "/api/provider/apply", payload: { ...body, idDocumentUrl: body.profilePhotoUrl } });
    expect(swapped.statusCode).toBe(400);
  });
});

describe("admin review", () => {
  const adminRoutes = [
    ["GET", "/api/admin/applications/pending"],
    ["GET", "/api/admin/providers/active"],
    ["GET", "/api/admin/audit-log"],
    ["GET", "/api/admin/outbox"],
    ["POST", "/api/admin/applications/00000000-0000-4000-8000-000000000000/approve"],
    ["POST", "/api/admin/applications/00000000-0000-4000-8000-000000000000/reject"],
    ["POST", "/api/admin/applications/00000000-0000-4000-8000-000000000000/review"],
  ] as const;

  it.each(adminRoutes)("%s %s refuses signed-out users (401) and non-admins (403)", async (method, url) => {
    const payload = method === "POST" ? { reason: "x" } : undefined;
    expect((await call(t, null, { method, url, payload })).statusCode).toBe(401);
    for (const role of ["user", "provider", "both"] as const) {
      const res = await call(t, await createUser(t, { role }), { method, url, payload });
      expect(res.statusCode).toBe(403);
    }
  });

  it("moves pending → under review → approved, makes them a provider, audits and notifies", async () => {
    const admin = await createUser(t, { role: "admin" });
    const { user } = await applicant();
    const list = await call(t, admin, { url: "/api/admin/applications/pending" });
    expect(list.json().map((a: { userId: string }) => a.userId)).toContain(user.id);

    expect((await call(t, admin, { method: "POST", url: `/api/admin/applications/${user.id}/review` })).statusCode).toBe(200);
    const underReview = await call(t, admin, { url: "/api/admin/applications/pending?status=under_review" });
    expect(underReview.json().map((a: { userId: string }) => a.userId)).toContain(user.id);
    const onlyPending = await call(t, admin, { url: "/api/admin/applications/pending?status=pending" });
    expect(onlyPending.json().map((a: { userId: string }) => a.userId)).not.toContain(user.id);

    await recordClearCheck(t, admin, user.id);
    expect((await call(t, admin, { method: "POST", url: `/api/admin/applications/${user.id}/approve` })).statusCode).toBe(200);
    const [row] = await t.database.db.select({ role: users.role }).from(users).where(eq(users.id, user.id));
    expect(row?.role).toBe("provider");
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, user.id));
    expect(audit.map((a) => a.action).sort()).toEqual(["background_check.record", "provider_application.approve", "provider_application.review"]);
    expect(audit.every((a) => a.actorId === admin.id)).toBe(true);
    const notes = await t.database.db.select().from(notifications).where(eq(notifications.userId, user.id));
    expect(notes).toEqual([expect.objectContaining({ kind: "application_decided", title: expect.stringMatching(/approved/) })]);
    const mails = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, user.email));
    expect(mails).toHaveLength(1);

    const active = await call(t, admin, { url: "/api/admin/providers/active" });
    expect(active.json().find((p: { userId: string }) => p.userId === user.id)).toMatchObject({ currentTask: null });
    // The approved provider's photo is now public; the ID document is not.
    const profile = (await call(t, user, { url: "/api/provider/profile" })).json();
    expect((await call(t, null, { url: profile.profilePhotoUrl })).statusCode).toBe(200);
    expect((await call(t, null, { url: profile.idDocumentUrl })).statusCode).toBe(404);
  });

  it("refuses illegal moves with 409 and changes nothing", async () => {
    const admin = await createUser(t, { role: "admin" });
    const { user } = await applicant();
    const post = (action: string, payload?: object) => call(t, admin, { method: "POST", url: `/api/admin/applications/${user.id}/${action}`, payload });
    expect((await post("review")).statusCode).toBe(200);
    expect((await post("review")).statusCode).toBe(409);
    expect((await post("reject", { reason: "Blurry ID" })).statusCode).toBe(200);
    const auditBefore = await countRows(auditLog);
    expect((await post("approve")).statusCode).toBe(409);
    expect((await post("review")).statusCode).toBe(409);
    expect((await post("reject", { reason: "again" })).statusCode).toBe(409);
    expect(await countRows(auditLog)).toBe(auditBefore);
    const approved = await createUser(t, { verifiedProvider: true });
    const res = await call(t, admin, { method: "POST", url: `/api/admin/applications/${approved.id}/reject`, payload: { reason: "x" } });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/approved/);
    expect((await call(t, admin, { method: "POST", url: `/api/admin/applications/${admin.id}/approve` })).statusCode).toBe(404);
  });

  it("requires a trimmed rejection reason, stores it, tells the applicant and lets them apply again", async () => {
    const admin = await createUser(t, { role: "admin" });
    const { user } = await applicant();
    const blank = await call(t, admin, { method: "POST", url: `/api/admin/applications/${user.id}/reject`, payload: { reason: "   " } });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toMatch(/reason/);
    const res = await call(t, admin, { method: "POST", url: `/api/admin/applications/${user.id}/reject`, payload: { reason: "  ID is expired " } });
    expect(res.statusCode).toBe(200);
    const profile = (await call(t, user, { url: "/api/provider/profile" })).json();
    expect(profile).toMatchObject({ verificationStatus: "rejected", rejectionReason: "ID is expired" });
    const [mail] = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, user.email));
    expect(mail?.text).toMatch(/ID is expired/);
    const [audit] = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, user.id));
    expect(audit?.reason).toBe("ID is expired");
    const log = await call(t, admin, { url: "/api/admin/audit-log" });
    expect(log.json().find((a: { targetId: string }) => a.targetId === user.id)).toMatchObject({ action: "provider_application.reject", actorEmail: admin.email, reason: "ID is expired" });
    const outbox = await call(t, admin, { url: "/api/admin/outbox" });
    expect(outbox.json().some((m: { to: string }) => m.to === user.email)).toBe(true);

    const again = await call(t, user, { method: "POST", url: "/api/provider/apply", payload: await validApplication(user) });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ verificationStatus: "pending", rejectionReason: null });
  });

  it("approves a poster as both and never demotes an admin", async () => {
    const admin = await createUser(t, { role: "admin" });
    const { user: poster } = await applicant();
    await taskAt(t, "open", { poster, budgetCents: 3000, body: { title: "Groceries", description: "Pick up groceries" } });
    await recordClearCheck(t, admin, poster.id);
    await call(t, admin, { method: "POST", url: `/api/admin/applications/${poster.id}/approve` });
    const { user: otherAdmin } = await applicant();
    await t.database.db.update(users).set({ role: "admin" }).where(eq(users.id, otherAdmin.id));
    await recordClearCheck(t, admin, otherAdmin.id);
    await call(t, admin, { method: "POST", url: `/api/admin/applications/${otherAdmin.id}/approve` });
    const roles = await t.database.db.select({ id: users.id, role: users.role }).from(users);
    expect(roles.find((r) => r.id === poster.id)?.role).toBe("both");
    expect(roles.find((r) => r.id === otherAdmin.id)?.role).toBe("admin");
  });

  it("lists an active provider's current task", async () => {
    const admin = await createUser(t, { role: "admin" });
    const provider = await createUser(t, { verifiedProvider: true });
    const poster = await createUser(t);
    await taskAt(t, "in_progress", {
      poster,
      provider,
      budgetCents: 2550,
      body: { title: "Walk the dog", description: "Twice round the park", category: "pet" },
    });
    const active = await call(t, admin, { url: "/api/admin/providers/active" });
    expect(active.json().find((p: { userId: string }) => p.userId === provider.id).currentTask).toMatchObject({
      title: "Walk the dog",
      budget: 25.5,
      category: "pet",
      status: "in_progress",
    });
  });
});

describe("directory and profile", () => {
  it("lists approved providers only, with rating, and nothing private", async () => {
    const provider = await createUser(t, { verifiedProvider: true, firstName: "Dana" });
    const poster = await createUser(t);
    const { user: pending } = await applicant();
    const { task } = await taskAt(t, "completed", { poster, provider, budgetCents: 2000, body: { title: "Tidy the garage", description: "D" } });
    const other = await createUser(t);
    // Revealed reviews count in the rating (the trigger on reviews adds them to the provider's row).
    await t.database.db.insert(reviews).values([
      { taskId: task.id, reviewerId: poster.id, reviewedId: provider.id, rating: 5, revealedAt: t.clock.now() },
      { taskId: task.id, reviewerId: other.id, reviewedId: provider.id, rating: 4, revealedAt: t.clock.now() },
    ]);

    const res = await call(t, null, { url: "/api/providers" });
    expect(res.statusCode).toBe(200);
    const list = res.json() as Record<string, unknown>[];
    expect(list.every((p) => p.verificationStatus === "approved")).toBe(true);
    const dana = list.find((p) => p.userId === provider.id);
    // A public surface: the display name, never the full last name (docs/product.md, "People you can see").
    expect(dana).toMatchObject({ displayName: expect.stringMatching(/^Dana L\.$/), city: "Annapolis", state: "MD", rating: "4.5", reviewCount: 2 });
    const raw = res.body;
    expect(raw).not.toContain("4105550100");
    expect(raw).not.toContain("1 Test St");
    expect(raw).not.toContain("21401");
    expect(raw).not.toContain(provider.email);
    expect(raw).not.toMatch(/"Last\d+"/);
    expect(raw).not.toContain(pending.email);
    for (const p of list) {
      expect(Object.keys(p).sort()).toEqual(
        ["bio", "city", "completedTasks", "displayName", "distanceMiles", "hourlyRate", "id", "profilePhotoUrl", "rating", "reviewCount", "serviceTypes", "state", "userId", "verificationStatus"],
      );
    }
  });

  it("lets a provider edit their profile and validates it", async () => {
    const provider = await createUser(t, { verifiedProvider: true });
    const photo = await uploadFile(provider, "profile_photo", tinyPng());
    const res = await call(t, provider, {
      method: "PATCH",
      url: "/api/provider/profile",
      payload: { bio: "New bio", hourlyRate: 35.5, serviceTypes: ["moving"], availability: { friday: true }, profilePhotoUrl: photo },
    });
    expect(res.statusCode).toBe(200);
    // An approved provider's new photo waits for an admin (decision 021); the rest applies at once.
    expect(res.json()).toMatchObject({ bio: "New bio", hourlyRate: 35.5, serviceTypes: ["moving"], profilePhotoUrl: null });
    const before = (await call(t, null, { url: "/api/providers" })).json();
    expect(before.find((p: { bio: string }) => p.bio === "New bio")).toMatchObject({ hourlyRate: 35.5, profilePhotoUrl: null });
    const admin = await createUser(t, { role: "admin" });
    expect((await call(t, admin, { method: "POST", url: `/api/admin/photo-changes/${provider.id}/approve` })).statusCode).toBe(200);
    const dir = (await call(t, null, { url: "/api/providers" })).json();
    expect(dir.find((p: { bio: string }) => p.bio === "New bio")).toMatchObject({ hourlyRate: 35.5, profilePhotoUrl: photo });

    for (const payload of [{ hourlyRate: 10.123 }, { serviceTypes: [] }, { phone: "123" }, { profilePhotoUrl: "/objects/00000000-0000-4000-8000-000000000000" }]) {
      const bad = await call(t, provider, { method: "PATCH", url: "/api/provider/profile", payload });
      expect(bad.statusCode).toBe(400);
    }
    expect((await call(t, await createUser(t), { method: "PATCH", url: "/api/provider/profile", payload: { bio: "x" } })).statusCode).toBe(404);
  });

  it("masks contact details in the bio every visitor reads, when applying and when editing", async () => {
    // The directory and the public profile show it before any task is paid (docs/decisions/070-contact-masking.md).
    const user = await createUser(t);
    const applied = await call(t, user, { method: "POST", url: "/api/provider/apply", payload: { ...(await validApplication(user)), bio: "Text me on 410  555  1234" } });
    expect(applied.statusCode).toBe(201);
    expect((await call(t, user, { url: "/api/provider/profile" })).json()).toMatchObject({ bio: `Text me on ${HIDDEN.phone}` });

    const provider = await createUser(t, { verifiedProvider: true });
    const edited = await call(t, provider, { method: "PATCH", url: "/api/provider/profile", payload: { bio: "Cheaper off the app: sam＠gmail.com, t.me/sammy" } });
    expect(edited.statusCode).toBe(200);
    const card = (await call(t, null, { url: "/api/providers" })).json<{ userId: string; bio: string }[]>().find((p) => p.userId === provider.id);
    expect(card?.bio).toBe(`Cheaper off the app: ${HIDDEN.email}, ${HIDDEN.link}`);
  });
});
