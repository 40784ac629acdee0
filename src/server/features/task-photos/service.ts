import { randomUUID } from "node:crypto";
import { and, count, eq, isNotNull } from "drizzle-orm";
import { TASK_PHOTO_LIMIT_MESSAGE, TASK_PHOTO_MAX_COUNT, type TaskPhotoSize, type TaskPhotosResponse } from "../../../shared/task-photos.js";
import type { ObjectStorage } from "../../adapters/storage/storage.js";
import type { AppContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { uploads } from "../../db/schema/providers.js";
import { taskPhotos } from "../../db/schema/task-photos.js";
import { tasks } from "../../db/schema/tasks.js";
import { listTaskPhotos } from "../../db/task-photo-list.js";
import { conflict, forbidden, HttpError, notFound, namedFieldError } from "../../http-errors.js";
import { recordTaskEvent, type TaskRow } from "../../transition-actions.js";
import { deriveImages } from "./images.js";

// Adding and removing a task's photos, and serving their images (docs/product.md#task-photos,
// docs/decisions/030-task-photos.md).

export interface TaskPhotoDeps {
  storage: ObjectStorage;
  /**
   * The providers' upload completion for kind task_photo (the same signed single-use flow as
   * every other file); app.ts hands it over, as features do not import each other.
   */
  completeUpload: (ownerId: string, uploadUrl: string) => Promise<{ objectPath: string }>;
  /** The tasks feature's job-board cache hears that a card changed (a photo is no transition: docs/decisions/045-transitions-name-their-actions.md). */
  boardCardChanged: (task: Pick<TaskRow, "id" | "category">) => void;
}

const NOT_YOURS = "This is not a task photo you uploaded. Upload the photo again, then add it.";

/** The task, if this user may change its photos now: the poster, while it is open. */
async function editableTask(db: Db, taskId: string, userId: string, lock: boolean): Promise<Pick<TaskRow, "id" | "title" | "category">> {
  const query = db
    .select({ id: tasks.id, userId: tasks.userId, status: tasks.status, title: tasks.title, category: tasks.category })
    .from(tasks)
    .where(eq(tasks.id, taskId));
  const [task] = lock ? await query.for("update") : await query;
  if (!task) throw notFound("Task not found");
  if (task.userId !== userId) throw forbidden("Only the person who posted this task can change its photos");
  if (task.status !== "open") throw conflict("Photos can only be added or removed while the task is open");
  return task;
}

async function assertRoomForOne(db: Db, taskId: string): Promise<void> {
  const [row] = await db.select({ n: count() }).from(taskPhotos).where(eq(taskPhotos.taskId, taskId));
  if ((row?.n ?? 0) >= TASK_PHOTO_MAX_COUNT) throw conflict(TASK_PHOTO_LIMIT_MESSAGE);
}

async function deleteFiles(ctx: AppContext, storage: ObjectStorage, keys: readonly string[]): Promise<void> {
  for (const key of keys) {
    try {
      await storage.delete(key);
    } catch (error) {
      ctx.log.error({ err: error, key }, "could not delete a task photo file");
    }
  }
}

export async function addTaskPhoto(
  ctx: AppContext,
  deps: TaskPhotoDeps,
  userId: string,
  taskId: string,
  body: { photoURL: string; alt?: string | undefined },
): Promise<TaskPhotosResponse> {
  // Cheap refusals first: no image work for a request that cannot succeed.
  await editableTask(ctx.db, taskId, userId, false);
  await assertRoomForOne(ctx.db, taskId);
  let objectPath: string;
  try {
    ({ objectPath } = await deps.completeUpload(userId, body.photoURL));
  } catch (error) {
    // Someone else's upload is "no such upload" to them: the same 400 as any other wrong URL.
    if (error instanceof HttpError && error.statusCode === 404) throw namedFieldError("photoURL", NOT_YOURS);
    throw error;
  }
  const [upload] = await ctx.db
    .select({ id: uploads.id, storageKey: uploads.storageKey })
    .from(uploads)
    .where(and(eq(uploads.id, objectPath.slice("/objects/".length)), eq(uploads.ownerId, userId), eq(uploads.kind, "task_photo"), isNotNull(uploads.sizeBytes)));
  if (!upload) throw namedFieldError("photoURL", NOT_YOURS);
  const original = await deps.storage.get(upload.storageKey);
  if (!original) throw namedFieldError("photoURL", "The file has not been uploaded yet. Upload the file, then try again.");
  const images = await deriveImages(original);

  // Keys of our own (decision 009), one per image: the images never change, so they are cached for good.
  const keys = { small: `taskphotos/${randomUUID()}`, medium: `taskphotos/${randomUUID()}` };
  await deps.storage.put(keys.small, images.small, "image/webp");
  await deps.storage.put(keys.medium, images.medium, "image/webp");
  try {
    const title = await ctx.db.transaction(async (tx) => {
      // The task row's lock orders concurrent additions, so the sixth one always sees five.
      const task = await editableTask(tx, taskId, userId, true);
      await assertRoomForOne(tx, taskId);
      const [row] = await tx
        .insert(taskPhotos)
        .values({ taskId, uploadId: upload.id, smallKey: keys.small, mediumKey: keys.medium, alt: body.alt || null, createdAt: ctx.now() })
        .onConflictDoNothing({ target: taskPhotos.uploadId })
        .returning({ id: taskPhotos.id });
      if (!row) throw namedFieldError("photoURL", "This photo is already attached to a task. Upload it again to use it twice.");
      await cardChanged(ctx, deps, tx, task, userId);
      return task.title;
    });
    return { photos: await listTaskPhotos(ctx.db, taskId, title) };
  } catch (error) {
    await deleteFiles(ctx, deps.storage, [keys.small, keys.medium]);
    throw error;
  }
}

/** The board card shows the first photo: this instance's board cache and every other instance hear of it. */
async function cardChanged(ctx: AppContext, deps: TaskPhotoDeps, tx: Db, task: Pick<TaskRow, "id" | "category">, userId: string): Promise<void> {
  deps.boardCardChanged(task);
  await recordTaskEvent(ctx.taskEventActions, "photos_changed", { taskId: task.id, actorId: userId, tx, now: ctx.now() });
}

/** The photo row, its original upload and then its three files (after the commit) go. */
export async function removeTaskPhoto(
  ctx: AppContext,
  deps: TaskPhotoDeps,
  userId: string,
  taskId: string,
  photoId: string,
): Promise<TaskPhotosResponse> {
  const { title, keys } = await ctx.db.transaction(async (tx) => {
    const task = await editableTask(tx, taskId, userId, true);
    const [photo] = await tx
      .delete(taskPhotos)
      .where(and(eq(taskPhotos.id, photoId), eq(taskPhotos.taskId, taskId)))
      .returning({ uploadId: taskPhotos.uploadId, smallKey: taskPhotos.smallKey, mediumKey: taskPhotos.mediumKey });
    if (!photo) throw notFound("Photo not found");
    const [original] = await tx.delete(uploads).where(eq(uploads.id, photo.uploadId)).returning({ storageKey: uploads.storageKey });
    await cardChanged(ctx, deps, tx, task, userId);
    return { title: task.title, keys: [photo.smallKey, photo.mediumKey, ...(original ? [original.storageKey] : [])] };
  });
  await deleteFiles(ctx, deps.storage, keys);
  return { photos: await listTaskPhotos(ctx.db, taskId, title) };
}

/** A derived image: public to everyone who can see the task, which is everyone (docs/product.md#task-photos). */
export async function readTaskPhotoImage(ctx: AppContext, storage: ObjectStorage, photoId: string, size: TaskPhotoSize): Promise<Buffer> {
  const [photo] = await ctx.db.select({ smallKey: taskPhotos.smallKey, mediumKey: taskPhotos.mediumKey }).from(taskPhotos).where(eq(taskPhotos.id, photoId));
  const body = photo ? await storage.get(size === "small" ? photo.smallKey : photo.mediumKey) : null;
  if (!body) throw notFound("Photo not found");
  return body;
}
