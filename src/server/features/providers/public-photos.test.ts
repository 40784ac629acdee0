import { eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { tinyPdf } from "../../../../test/fixtures/test-files.js";
import { PROFILE_PHOTO_PUBLIC_SIDE } from "../../../shared/constants.js";
import type { UserProfile } from "../../../shared/profiles.js";
import { createStorage } from "../../adapters/storage/create-storage.js";
import { uploads } from "../../db/schema/providers.js";
import { users } from "../../db/schema/users.js";
import { publicPhotoKey } from "../../public-images.js";
import { deleteUnattachedUploads } from "./uploads.js";
import { recordClearCheck } from "../../../../test/fixtures/factory.js";

// Photos that others see pass through the public-image pipeline; the originals and ID documents
// stay private (docs/decisions/009-uploads-and-storage.md, docs/security.md).

const t = await useTestApp();
const storage = await createStorage(t.env);

const ARTIST = "Jane Q. Photographer";

/** A 1600×900 JPEG from a phone held sideways (EXIF orientation 6), signed by its Artist and saying where it was taken. */
function phoneJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 1600, height: 900, channels: 3, background: "#3a7" } })
    .jpeg()
    .withExif({
      IFD0: { Artist: ARTIST, Make: "TestCam" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "38/1 58/1 42/1", GPSLongitudeRef: "W", GPSLongitude: "76/1 29/1 31/1" },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

async function uploadFile(user: TestUser, kind: "id_document" | "profile_photo", bytes: Buffer): Promise<string> {
  const link = await call(t, user, { method: "POST", url: "/api/objects/upload", payload: { kind } });
  const uploadURL = link.json<{ uploadURL: string }>().uploadURL;
  const put = await call(t, user, { method: "PUT", url: uploadURL, payload: bytes, headers: { "content-type": "application/octet-stream" } });
  expect(put.statusCode, put.body).toBe(200);
  const set =
    kind === "id_document"
      ? await call(t, user, { method: "PUT", url: "/api/provider/set-id-document", payload: { idDocumentURL: uploadURL } })
      : await call(t, user, { method: "PUT", url: "/api/provider/set-profile-photo", payload: { profilePhotoURL: uploadURL } });
  expect(set.statusCode, set.body).toBe(200);
  return set.json<{ objectPath: string }>().objectPath;
}

const profilePhotoUrl = async (user: TestUser) => (await call(t, null, { url: `/api/users/${user.id}/profile` })).json<UserProfile>().photoUrl;

/** What a stranger gets at a public photo address: upright, bounded, WebP, and nothing of the EXIF. */
async function expectCleanImage(url: string): Promise<void> {
  const res = await call(t, null, { url });
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toBe("image/webp");
  expect(res.headers["x-content-type-options"]).toBe("nosniff");
  const meta = await sharp(res.rawPayload).metadata();
  expect(meta.format).toBe("webp");
  expect(meta.exif).toBeUndefined();
  expect(meta.xmp).toBeUndefined();
  expect(meta.orientation).toBeUndefined();
  // Orientation 6 turned the 16:9 landscape file into the portrait the phone saw, at most 512 px long.
  expect(meta.height).toBe(PROFILE_PHOTO_PUBLIC_SIDE);
  expect(meta.width).toBe(288);
  expect(res.rawPayload.includes(Buffer.from(ARTIST))).toBe(false);
  expect(res.rawPayload.includes(Buffer.from("TestCam"))).toBe(false);
}

describe("public photos", () => {
  it("serves a profile photo linked from the public profile without its EXIF, GPS or Artist, upright and bounded", async () => {
    const original = await phoneJpeg();
    const exif = (await sharp(original).metadata()).exif;
    expect(exif?.includes(Buffer.from(ARTIST))).toBe(true);
    const person = await createUser(t);
    const path = await uploadFile(person, "profile_photo", original);
    expect((await call(t, person, { method: "PUT", url: "/api/account/photo", payload: { photoURL: path } })).statusCode).toBe(200);

    expect(await profilePhotoUrl(person)).toBe(path);
    await expectCleanImage(path);
    await expectCleanImage(`/api${path}`);
    // The original is kept, private: what anyone reads back, the owner included, is the clean image.
    const [row] = await t.database.db.select({ storageKey: uploads.storageKey }).from(uploads).where(eq(uploads.ownerId, person.id));
    expect((await storage.get(row?.storageKey ?? ""))?.equals(original)).toBe(true);
    const own = await call(t, person, { url: path });
    expect(own.headers["content-type"]).toBe("image/webp");
    expect(own.rawPayload.includes(Buffer.from(ARTIST))).toBe(false);
  });

  it("serves an approved provider's application photo the same way, and never the ID document", async () => {
    const applicant = await createUser(t);
    const idDocument = await uploadFile(applicant, "id_document", tinyPdf());
    const photo = await uploadFile(applicant, "profile_photo", await phoneJpeg());
    const applied = await call(t, applicant, {
      method: "POST",
      url: "/api/provider/apply",
      payload: {
        fullName: "Pat Applicant",
        email: applicant.email,
        phone: "(410) 555-0199",
        address: "12 Harbor Rd",
        city: "Annapolis",
        state: "MD",
        zipCode: "21401",
        serviceTypes: ["errands"],
        idDocumentUrl: idDocument,
        profilePhotoUrl: photo,
        availability: { monday: true },
        bio: "Reliable and friendly.",
        agreeTerms: true,
      },
    });
    expect(applied.statusCode, applied.body).toBe(201);
    const admin = await createUser(t, { role: "admin" });
    await recordClearCheck(t, admin, applicant.id);
    expect((await call(t, admin, { method: "POST", url: `/api/admin/applications/${applicant.id}/approve` })).statusCode).toBe(200);

    expect(await profilePhotoUrl(applicant)).toBe(photo);
    await expectCleanImage(photo);

    // The ID document stays private after approval: anonymous and other people get 404, admins and the owner the file.
    const stranger = await createUser(t);
    const provider = await createUser(t, { verifiedProvider: true });
    for (const url of [idDocument, `/api${idDocument}`]) {
      expect((await call(t, null, { url })).statusCode).toBe(404);
      expect((await call(t, stranger, { url })).statusCode).toBe(404);
      expect((await call(t, provider, { url })).statusCode).toBe(404);
      const seen = await call(t, admin, { url });
      expect(seen.statusCode).toBe(200);
      expect(seen.headers["cache-control"]).toBe("private, no-store");
      expect(seen.headers["content-disposition"]).toMatch(/^attachment/);
      expect(seen.rawPayload.equals(tinyPdf())).toBe(true);
    }
    expect((await call(t, applicant, { url: idDocument })).statusCode).toBe(200);
    // Nor can the document become a photo that others see.
    const asPhoto = await call(t, applicant, { method: "PUT", url: "/api/account/photo", payload: { photoURL: idDocument } });
    expect(asPhoto.statusCode).toBe(400);
  });

  it("cleans a photo stored raw before the pipeline at its first reading, and deletes its image with it", async () => {
    // As every profile photo was stored until now: the original only, with no public image beside it.
    const person = await createUser(t);
    const original = await phoneJpeg();
    const storageKey = `objects/${crypto.randomUUID()}`;
    await storage.put(storageKey, original, "image/jpeg");
    const [row] = await t.database.db
      .insert(uploads)
      .values({
        ownerId: person.id,
        kind: "profile_photo",
        tokenHash: `legacy-${storageKey}`,
        storageKey,
        contentType: "image/jpeg",
        sizeBytes: original.length,
        expiresAt: t.clock.now(),
        usedAt: t.clock.now(),
        createdAt: t.clock.now(),
      })
      .returning({ id: uploads.id });
    const id = row?.id ?? "";
    await t.database.db.update(users).set({ profileImageUrl: `/objects/${id}` }).where(eq(users.id, person.id));

    await expectCleanImage(`/objects/${id}`);
    expect(await storage.get(publicPhotoKey(id))).not.toBeNull();
    await expectCleanImage(`/objects/${id}`);

    // Replaced and a day old: the unattached-files job deletes the original and its image.
    await t.database.db.update(users).set({ profileImageUrl: null }).where(eq(users.id, person.id));
    t.clock.advance(25 * 3_600_000);
    expect(await deleteUnattachedUploads(t.app.ctx, storage)).toBeGreaterThanOrEqual(1);
    expect(await storage.get(storageKey)).toBeNull();
    expect(await storage.get(publicPhotoKey(id))).toBeNull();
  });

  it("refuses a photo sharp cannot read when it is attached, and keeps nothing of it", async () => {
    const person = await createUser(t);
    const damaged = Buffer.concat([(await phoneJpeg()).subarray(0, 200), Buffer.alloc(200)]);
    const link = await call(t, person, { method: "POST", url: "/api/objects/upload", payload: { kind: "profile_photo" } });
    const uploadURL = link.json<{ uploadURL: string }>().uploadURL;
    expect((await call(t, person, { method: "PUT", url: uploadURL, payload: damaged, headers: { "content-type": "image/jpeg" } })).statusCode).toBe(200);
    const set = await call(t, person, { method: "PUT", url: "/api/provider/set-profile-photo", payload: { profilePhotoURL: uploadURL } });
    expect(set.statusCode).toBe(400);
    expect(set.json<{ message: string }>().message).toBe("This image could not be read (it may be damaged). Choose another photo and upload it again.");
    expect(await t.database.db.select().from(uploads).where(eq(uploads.ownerId, person.id))).toEqual([]);
  });
});
