import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNotNull } from "drizzle-orm";
import { disputePhotoUrl, type DisputePhoto } from "../../../shared/disputes.js";
import { TASK_PHOTO_SIZES, type TaskPhotoSize } from "../../../shared/task-photos.js";
import type { ObjectStorage } from "../../adapters/storage/storage.js";
import type { AppContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { disputeMessages, disputePhotos, disputes } from "../../db/schema/payments.js";
import { uploads } from "../../db/schema/providers.js";
import { tasks } from "../../db/schema/tasks.js";
import { HttpError, namedFieldError, notFound } from "../../http-errors.js";
import { isPartyOrAdmin, type Viewer } from "../../policy.js";
import { toPublicImage } from "../../public-images.js";

// Photos of a dispute's messages: evidence for the task's two parties and admins only
// (docs/decisions/057-disputes-guarantee-late-cancellation.md, docs/security.md). The author's
// upload is the private original; its two WebP images, made by the one public-image pipeline
// (upright, no EXIF or GPS), are what the parties see, served to nobody else.

export interface DisputePhotoDeps {
  storage: ObjectStorage;
  /** The providers' upload completion for kind dispute_photo; app.ts hands it over, as features do not import each other. */
  completeUpload: (ownerId: string, uploadUrl: string) => Promise<{ objectPath: string }>;
}

/** Images made and stored before the message's transaction, attached inside it. */
export interface PreparedPhoto {
  uploadId: string;
  smallKey: string;
  mediumKey: string;
}

const FIELD = "photoURLs";
const NOT_YOURS = "One of these photos is not a photo you uploaded for this problem. Upload the photo again, then send it.";

async function deleteFiles(ctx: AppContext, storage: ObjectStorage, photos: readonly PreparedPhoto[]): Promise<void> {
  for (const key of photos.flatMap((p) => [p.smallKey, p.mediumKey])) {
    try {
      await storage.delete(key);
    } catch (error) {
      ctx.log.error({ err: error, key }, "could not delete a dispute photo file");
    }
  }
}

/**
 * Completes each upload (the caller's own, of kind dispute_photo) and stores its two images.
 * Image work is bounded by the uploads themselves, which are rate limited and single use.
 */
async function prepareDisputePhotos(ctx: AppContext, deps: DisputePhotoDeps, userId: string, photoURLs: readonly string[]): Promise<PreparedPhoto[]> {
  const prepared: PreparedPhoto[] = [];
  try {
    for (const url of photoURLs) {
      let objectPath: string;
      try {
        ({ objectPath } = await deps.completeUpload(userId, url));
      } catch (error) {
        // Someone else's upload is "no such upload" to them: the same 400 as any other wrong link.
        if (error instanceof HttpError && error.statusCode === 404) throw namedFieldError(FIELD, NOT_YOURS);
        throw error;
      }
      const [upload] = await ctx.db
        .select({ id: uploads.id, storageKey: uploads.storageKey })
        .from(uploads)
        .where(and(eq(uploads.id, objectPath.slice("/objects/".length)), eq(uploads.ownerId, userId), eq(uploads.kind, "dispute_photo"), isNotNull(uploads.sizeBytes)));
      if (!upload) throw namedFieldError(FIELD, NOT_YOURS);
      const original = await deps.storage.get(upload.storageKey);
      if (!original) throw namedFieldError(FIELD, "A photo has not been uploaded yet. Upload it, then send the message again.");
      const [small, medium] = await Promise.all([toPublicImage(original, TASK_PHOTO_SIZES.small), toPublicImage(original, TASK_PHOTO_SIZES.medium)]);
      const photo = { uploadId: upload.id, smallKey: `disputephotos/${randomUUID()}`, mediumKey: `disputephotos/${randomUUID()}` };
      await deps.storage.put(photo.smallKey, small, "image/webp");
      await deps.storage.put(photo.mediumKey, medium, "image/webp");
      prepared.push(photo);
    }
  } catch (error) {
    await deleteFiles(ctx, deps.storage, prepared);
    throw error;
  }
  return prepared;
}

/** Inside the message's transaction; an upload already attached to another message is refused. */
export async function attachDisputePhotos(tx: Db, messageId: string, photos: readonly PreparedPhoto[], now: Date): Promise<void> {
  if (photos.length === 0) return;
  const rows = await tx
    .insert(disputePhotos)
    .values(photos.map((p) => ({ messageId, uploadId: p.uploadId, smallKey: p.smallKey, mediumKey: p.mediumKey, createdAt: now })))
    .onConflictDoNothing({ target: disputePhotos.uploadId })
    .returning({ id: disputePhotos.id });
  if (rows.length !== photos.length) throw namedFieldError(FIELD, "A photo is already attached to a message. Upload it again to send it twice.");
}

/** Runs `work` with the prepared photos; their files go again if it fails. */
export async function withDisputePhotos(
  ctx: AppContext,
  deps: DisputePhotoDeps,
  userId: string,
  photoURLs: readonly string[],
  work: (photos: PreparedPhoto[]) => Promise<void>,
): Promise<void> {
  const photos = await prepareDisputePhotos(ctx, deps, userId, photoURLs);
  try {
    await work(photos);
  } catch (error) {
    await deleteFiles(ctx, deps.storage, photos);
    throw error;
  }
}

/** Each message's photos, in the order they were sent. */
export async function photosOfMessages(db: Db, messageIds: readonly string[]): Promise<Map<string, DisputePhoto[]>> {
  const byMessage = new Map<string, DisputePhoto[]>();
  if (messageIds.length === 0) return byMessage;
  const rows = await db
    .select({ id: disputePhotos.id, messageId: disputePhotos.messageId })
    .from(disputePhotos)
    .where(inArray(disputePhotos.messageId, [...messageIds]))
    .orderBy(asc(disputePhotos.seq));
  for (const row of rows) {
    const list = byMessage.get(row.messageId) ?? [];
    list.push({ id: row.id, small: disputePhotoUrl(row.id, "small"), medium: disputePhotoUrl(row.id, "medium") });
    byMessage.set(row.messageId, list);
  }
  return byMessage;
}

/**
 * A dispute photo's image, for the task's poster, its provider and admins. Anyone else gets the
 * same 404 as for an id that does not exist, so a guessed id tells nothing (docs/security.md).
 */
export async function readDisputePhotoImage(
  ctx: AppContext,
  storage: ObjectStorage,
  photoId: string,
  size: TaskPhotoSize,
  viewer: Viewer,
): Promise<Buffer> {
  const [photo] = await ctx.db
    .select({ smallKey: disputePhotos.smallKey, mediumKey: disputePhotos.mediumKey, posterId: tasks.userId, providerId: tasks.providerId })
    .from(disputePhotos)
    .innerJoin(disputeMessages, eq(disputeMessages.id, disputePhotos.messageId))
    .innerJoin(disputes, eq(disputes.id, disputeMessages.disputeId))
    .innerJoin(tasks, eq(tasks.id, disputes.taskId))
    .where(eq(disputePhotos.id, photoId));
  const party = photo !== undefined && isPartyOrAdmin(viewer, [photo.posterId, photo.providerId]);
  const body = party ? await storage.get(size === "small" ? photo.smallKey : photo.mediumKey) : null;
  if (!body) throw notFound("Photo not found");
  return body;
}
