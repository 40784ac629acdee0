import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, eq, gt, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { PROFILE_PHOTO_PUBLIC_SIDE } from "../../../shared/constants.js";
import { UPLOAD_URL_TTL_MS } from "../../../shared/providers.js";
import {
  EMPTY_UPLOAD_MESSAGE,
  UPLOAD_RULES,
  uploadRule,
  uploadTooLargeMessage,
  uploadTypeMessage,
  type UploadKind,
} from "../../../shared/upload-rules.js";
import { detectFileType } from "../../adapters/storage/file-type.js";
import type { ObjectStorage } from "../../adapters/storage/storage.js";
import type { AppContext } from "../../context.js";
import { disputePhotos } from "../../db/schema/payments.js";
import { providerProfiles, uploads } from "../../db/schema/providers.js";
import { taskPhotos } from "../../db/schema/task-photos.js";
import { users } from "../../db/schema/users.js";
import { badRequest, HttpError, notFound, namedFieldError } from "../../http-errors.js";
import { isPartyOrAdmin, type Viewer } from "../../policy.js";
import { publicPhotoKey, toPublicImage } from "../../public-images.js";

// The one upload flow every file of the product goes through (ID documents, profile and task
// photos; docs/decisions/009-uploads-and-storage.md): signed upload links, completing an upload
// into the row that uses it, reading a file as its viewer may, and the cleanup passes.

// ---------------------------------------------------------------------------------------------
// Uploads: signed upload URLs (one row each, token stored hashed), the checks every file passes
// before it is kept, and who may read it back (docs/decisions/009-uploads-and-storage.md).

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");


const linkGone = () => new HttpError(410, "This upload link has expired or was already used. Please upload the file again.");

const objectPath = (uploadId: string) => `/objects/${uploadId}`;

function check(kind: UploadKind | null, body: Buffer | "too_large"): { file: Buffer; contentType: string } {
  if (body === "too_large" || body.length > uploadRule(kind).maxBytes) throw new HttpError(413, uploadTooLargeMessage(kind));
  if (body.length === 0) throw badRequest(EMPTY_UPLOAD_MESSAGE);
  const type = detectFileType(body);
  if (!type || !uploadRule(kind).types.includes(type)) throw new HttpError(415, uploadTypeMessage(kind));
  return { file: body, contentType: type };
}

export async function createUpload(
  ctx: AppContext,
  storage: ObjectStorage,
  ownerId: string,
  kind: UploadKind | null,
): Promise<{ uploadURL: string }> {
  const token = randomBytes(32).toString("base64url");
  const now = ctx.now();
  const [row] = await ctx.db
    .insert(uploads)
    .values({
      ownerId,
      kind,
      tokenHash: hashToken(token),
      storageKey: `objects/${randomUUID()}`,
      expiresAt: new Date(now.getTime() + UPLOAD_URL_TTL_MS),
      // The app's clock, not the database's: retention counts from it.
      createdAt: now,
    })
    .returning({ id: uploads.id });
  if (!row) throw new Error("upload row not created");
  const uploadURL = await storage.signUpload({ uploadId: row.id, token, expiresInSeconds: UPLOAD_URL_TTL_MS / 1000, now });
  return { uploadURL };
}

/** PUT /api/objects/put/{token} (local storage): the link is spent before the body is read. */
export async function receiveLocalUpload(
  ctx: AppContext,
  storage: ObjectStorage,
  ownerId: string,
  token: string,
  body: Buffer | "too_large",
): Promise<void> {
  const [row] = await ctx.db
    .update(uploads)
    .set({ usedAt: ctx.now() })
    .where(
      and(eq(uploads.tokenHash, hashToken(token)), eq(uploads.ownerId, ownerId), isNull(uploads.usedAt), gt(uploads.expiresAt, ctx.now())),
    )
    .returning();
  if (!row) throw linkGone();
  const { file, contentType } = check(row.kind, body);
  await assertWithinQuota(ctx, ownerId, file.length);
  await storage.put(row.storageKey, file, contentType);
  await ctx.db.update(uploads).set({ contentType, sizeBytes: file.length }).where(eq(uploads.id, row.id));
}

/** The upload row an upload URL stands for: our own token, or the S3 incoming key. */
function uploadRef(uploadUrl: string): { token: string } | { id: string } | null {
  let path: string;
  try {
    path = new URL(uploadUrl, "http://local").pathname;
  } catch {
    return null;
  }
  const local = /\/api\/objects\/put\/([A-Za-z0-9_-]{20,100})$/.exec(path);
  if (local?.[1]) return { token: local[1] };
  const s3 = /\/incoming\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(path);
  if (s3?.[1]) return { id: s3[1] };
  return null;
}

/**
 * set-id-document / set-profile-photo: the caller's finished upload becomes a file of `kind`.
 * Answers the objectPath the application form sends back. A profile photo's public image is made
 * now, so a file sharp cannot read is refused here, not when someone first looks at it.
 */
export async function completeUpload(
  ctx: AppContext,
  storage: ObjectStorage,
  ownerId: string,
  uploadUrl: string,
  kind: UploadKind,
  field: string,
): Promise<{ objectPath: string }> {
  const upload = await acceptUpload(ctx, storage, ownerId, uploadUrl, kind, field);
  if (kind === "profile_photo") {
    try {
      await publicPhotoImage(storage, upload);
    } catch (error) {
      await storage.delete(upload.storageKey);
      await ctx.db.delete(uploads).where(eq(uploads.id, upload.id));
      throw error;
    }
  }
  return { objectPath: objectPath(upload.id) };
}

/**
 * The image everyone sees of a profile photo, the owner and admins included (decision 009): made
 * once by the public-image pipeline (upright, at most PROFILE_PHOTO_PUBLIC_SIDE px, WebP without
 * EXIF or GPS) and kept beside the private original. A photo stored before these images existed
 * gets its image at its first reading; its original is never served.
 */
async function publicPhotoImage(storage: ObjectStorage, upload: { id: string; storageKey: string }): Promise<Buffer | null> {
  const key = publicPhotoKey(upload.id);
  const made = await storage.get(key);
  if (made) return made;
  const original = await storage.get(upload.storageKey);
  if (!original) return null;
  const image = await toPublicImage(original, PROFILE_PHOTO_PUBLIC_SIDE);
  try {
    await storage.put(key, image, "image/webp");
  } catch (error) {
    // Two first readings at once: local files are written only once, and the other one was first.
    if (!(await storage.get(key))) throw error;
  }
  return image;
}

async function acceptUpload(
  ctx: AppContext,
  storage: ObjectStorage,
  ownerId: string,
  uploadUrl: string,
  kind: UploadKind,
  field: string,
): Promise<{ id: string; storageKey: string }> {
  const ref = uploadRef(uploadUrl);
  if (!ref) throw namedFieldError(field, "This is not an upload link of ours. Ask for an upload link, upload the file to it, then send that link.");
  const match = "token" in ref ? eq(uploads.tokenHash, hashToken(ref.token)) : eq(uploads.id, ref.id);
  const [row] = await ctx.db
    .select()
    .from(uploads)
    .where(and(match, eq(uploads.ownerId, ownerId)))
    .limit(1);
  if (!row) throw notFound(`${field}: This upload was not found. Upload the file again.`);
  if (row.kind && row.kind !== kind) throw namedFieldError(field, "This file was uploaded for another purpose. Upload it again here.");

  if (row.sizeBytes === null && storage.kind === "s3") {
    if (row.expiresAt.getTime() <= ctx.now().getTime() && row.usedAt === null) throw linkGone();
    // Spend the row first so two concurrent completions cannot both copy the file.
    const [claimed] = await ctx.db
      .update(uploads)
      .set({ usedAt: ctx.now() })
      .where(and(eq(uploads.id, row.id), isNull(uploads.usedAt)))
      .returning({ id: uploads.id });
    if (!claimed) throw linkGone();
    const incoming = await storage.takeIncoming(row.id, UPLOAD_RULES[kind].maxBytes);
    if (incoming.status === "missing") throw namedFieldError(field, "The file has not been uploaded yet. Upload the file, then try again.");
    const { file, contentType } = check(kind, incoming.status === "ok" ? incoming.body : "too_large");
    await assertWithinQuota(ctx, ownerId, file.length);
    await storage.put(row.storageKey, file, contentType);
    await ctx.db.update(uploads).set({ kind, contentType, sizeBytes: file.length }).where(eq(uploads.id, row.id));
    return row;
  }

  if (row.sizeBytes === null || row.contentType === null) throw namedFieldError(field, "The file has not been uploaded yet. Upload the file, then try again.");
  // An upload made without a kind was checked against the widest rule; apply this kind's now.
  if (row.sizeBytes > UPLOAD_RULES[kind].maxBytes || !UPLOAD_RULES[kind].types.includes(row.contentType)) {
    const stored = await storage.get(row.storageKey);
    await storage.delete(row.storageKey);
    await ctx.db.delete(uploads).where(eq(uploads.id, row.id));
    check(kind, stored ?? Buffer.alloc(0));
  }
  await ctx.db.update(uploads).set({ kind }).where(and(eq(uploads.id, row.id), or(isNull(uploads.kind), eq(uploads.kind, kind))));
  return row;
}

/** A completed upload of `kind` owned by `ownerId`, named by its objectPath; else a 400 naming the field. */
export async function assertOwnedUpload(ctx: AppContext, ownerId: string, path: string, kind: UploadKind, field: string): Promise<void> {
  const id = path.slice("/objects/".length);
  const [row] = await ctx.db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(eq(uploads.id, id), eq(uploads.ownerId, ownerId), eq(uploads.kind, kind), isNotNull(uploads.sizeBytes)))
    .limit(1);
  const what = kind === "id_document" ? "an ID document" : "a profile photo";
  if (!row) throw namedFieldError(field, `This is not a file you uploaded as ${what}. Upload it again as ${what}.`);
}

/** Upload URLs never completed within an hour of expiring: the rows go, and any S3 leftovers. */
export async function deleteAbandonedUploads(ctx: AppContext, storage: ObjectStorage): Promise<number> {
  const cutoff = new Date(ctx.now().getTime() - 3_600_000);
  const gone = await ctx.db
    .delete(uploads)
    .where(and(isNull(uploads.sizeBytes), lt(uploads.expiresAt, cutoff)))
    .returning({ id: uploads.id });
  for (const row of gone) await storage.discardIncoming(row.id);
  return gone.length;
}

/** Stored bytes of files a user uploaded that nothing uses yet; past it, uploads are refused. */
export const UNATTACHED_QUOTA_BYTES = 100 * 1024 * 1024;
/** A file nothing uses is deleted this long after its upload. */
export const UNATTACHED_TTL_MS = 24 * 3_600_000;
export const QUOTA_MESSAGE =
  "You have uploaded 100 MB of files that are not used yet. Use or replace them first, or wait a day until unused files are removed.";

/**
 * An upload is attached while a provider profile or a user's photo (shown or pending) points at it,
 * or it is the original of a task photo (docs/decisions/030-task-photos.md) or of a dispute photo (decision 057).
 */
const attached = sql`(exists (select 1 from ${providerProfiles} p
  where p.id_document_path = '/objects/' || ${uploads.id}::text or p.profile_photo_path = '/objects/' || ${uploads.id}::text)
  or exists (select 1 from ${users} u
  where u.profile_image_url = '/objects/' || ${uploads.id}::text or u.pending_profile_image_url = '/objects/' || ${uploads.id}::text)
  or exists (select 1 from ${taskPhotos} tp where tp.upload_id = ${uploads.id})
  or exists (select 1 from ${disputePhotos} dp where dp.upload_id = ${uploads.id}))`;

/**
 * One account cannot fill the disk: a file is refused when the owner's unattached files and it
 * would pass the quota. Checked before the file is stored; a race of two uploads can pass it by one
 * file at most (10 MB), which the 24-hour deletion takes back.
 */
async function assertWithinQuota(ctx: AppContext, ownerId: string, bytes: number): Promise<void> {
  const [row] = await ctx.db
    .select({ total: sql<string | null>`sum(${uploads.sizeBytes})` })
    .from(uploads)
    .where(and(eq(uploads.ownerId, ownerId), isNotNull(uploads.sizeBytes), sql`not ${attached}`));
  if (Number(row?.total ?? 0) + bytes > UNATTACHED_QUOTA_BYTES) throw new HttpError(413, QUOTA_MESSAGE);
}

/** Files nothing uses, a day after their upload: the file goes first, so a failure is retried next pass. */
export async function deleteUnattachedUploads(ctx: AppContext, storage: ObjectStorage): Promise<number> {
  const cutoff = new Date(ctx.now().getTime() - UNATTACHED_TTL_MS);
  const stale = await ctx.db
    .select({ id: uploads.id, storageKey: uploads.storageKey })
    .from(uploads)
    .where(and(isNotNull(uploads.sizeBytes), lt(uploads.createdAt, cutoff), sql`not ${attached}`))
    .limit(100);
  for (const row of stale) {
    // A replaced profile photo's public image goes with it (none exists for other kinds: deleting is a no-op).
    await storage.delete(publicPhotoKey(row.id));
    await storage.delete(row.storageKey);
    await ctx.db.delete(uploads).where(and(eq(uploads.id, row.id), sql`not ${attached}`));
  }
  return stale.length;
}

/** How long an ID document outlives the application it proved (the privacy policy's promise). */
export const ID_DOCUMENT_RETENTION_DAYS = 90;

/**
 * Deletes ID documents of applications rejected more than 90 days ago (the privacy policy's
 * promise); documents no application uses go after a day with every unattached file
 * (deleteUnattachedUploads). An approved or pending provider's current document stays. The file
 * goes first: if that fails the row remains and the next pass tries again.
 */
export async function deleteRetiredIdDocuments(ctx: AppContext, storage: ObjectStorage): Promise<number> {
  const cutoff = new Date(ctx.now().getTime() - ID_DOCUMENT_RETENTION_DAYS * 86_400_000);
  const inUse = sql`${providerProfiles.idDocumentPath} = '/objects/' || ${uploads.id}::text`;
  const retired = await ctx.db
    .select({ id: uploads.id, storageKey: uploads.storageKey })
    .from(uploads)
    .leftJoin(providerProfiles, eq(providerProfiles.userId, uploads.ownerId))
    .where(
      and(
        eq(uploads.kind, "id_document"),
        isNotNull(uploads.sizeBytes),
        inUse,
        eq(providerProfiles.verificationStatus, "rejected"),
        lt(providerProfiles.reviewedAt, cutoff),
      ),
    )
    .limit(100);
  for (const row of retired) {
    await storage.delete(row.storageKey);
    await ctx.db.transaction(async (tx) => {
      await tx.update(providerProfiles).set({ idDocumentPath: null }).where(eq(providerProfiles.idDocumentPath, objectPath(row.id)));
      await tx.delete(uploads).where(eq(uploads.id, row.id));
    });
  }
  return retired.length;
}

export interface ServedObject {
  body: Buffer;
  contentType: string;
  disposition: "inline" | "attachment";
  cache: "public" | "private";
}

/**
 * GET /objects/{id}: ID documents (and files not yet attached) only to their owner and admins;
 * a profile photo is public once it belongs to an approved provider or is its owner's shown photo
 * (a pending one is not: decision 021). Others get 404, so a
 * guessed id tells nothing.
 */
export async function readObject(
  ctx: AppContext,
  storage: ObjectStorage,
  id: string,
  viewer: Viewer | null,
): Promise<ServedObject> {
  const [row] = await ctx.db
    .select({
      ownerId: uploads.ownerId,
      kind: uploads.kind,
      storageKey: uploads.storageKey,
      contentType: uploads.contentType,
      publicPhoto: sql<boolean>`exists (select 1 from ${providerProfiles} where ${providerProfiles.userId} = ${uploads.ownerId}
        and ${providerProfiles.verificationStatus} = 'approved' and ${providerProfiles.profilePhotoPath} = ${objectPath(id)})
        or exists (select 1 from ${users} where ${users.id} = ${uploads.ownerId} and ${users.profileImageUrl} = ${objectPath(id)})`,
    })
    .from(uploads)
    .where(and(eq(uploads.id, id), isNotNull(uploads.sizeBytes)))
    .limit(1);
  if (!row?.contentType) throw notFound("File not found");
  const privileged = isPartyOrAdmin(viewer, [row.ownerId]);
  const publicPhoto = row.kind === "profile_photo" && row.publicPhoto;
  if (!privileged && !publicPhoto) throw notFound("File not found");
  if (row.kind === "profile_photo") {
    const image = await readablePublicPhoto(storage, { id, storageKey: row.storageKey });
    return { body: image, contentType: "image/webp", disposition: "inline", cache: publicPhoto ? "public" : "private" };
  }
  const body = await storage.get(row.storageKey);
  if (!body) throw notFound("File not found");
  return { body, contentType: row.contentType, disposition: "attachment", cache: "private" };
}

/** A stored photo sharp cannot read (possible only before decision 009 sent photos through it) is not found, never served raw. */
async function readablePublicPhoto(storage: ObjectStorage, upload: { id: string; storageKey: string }): Promise<Buffer> {
  try {
    const image = await publicPhotoImage(storage, upload);
    if (image) return image;
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
  }
  throw notFound("File not found");
}
