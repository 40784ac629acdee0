import { z } from "zod";

// Task photos (docs/product.md#task-photos, docs/decisions/030-task-photos.md): the contracts of
// the photo routes, the limits both sides show, and where a photo's images are served.

export const TASK_PHOTO_MAX_COUNT = 5;
export const TASK_PHOTO_ALT_MAX_LENGTH = 200;
/** Longest side of the derived images, in pixels. */
export const TASK_PHOTO_SIZES = { small: 320, medium: 1280 } as const;
export type TaskPhotoSize = keyof typeof TASK_PHOTO_SIZES;

export const TASK_PHOTO_LIMIT_MESSAGE = `A task can have at most ${TASK_PHOTO_MAX_COUNT} photos`;

/** Where a derived image is served (public, immutable: a photo's images never change). */
export const taskPhotoUrl = (photoId: string, size: TaskPhotoSize) => `/api/task-photos/${photoId}/${size}`;

/** What people read when the poster wrote no description: "Photo 2 of Move a couch". */
export const defaultPhotoAlt = (position: number, taskTitle: string) => `Photo ${position} of ${taskTitle}`;

export const taskPhotoAltSchema = z
  .string({ error: "alt must be text" })
  .trim()
  .max(TASK_PHOTO_ALT_MAX_LENGTH, { error: `alt must be at most ${TASK_PHOTO_ALT_MAX_LENGTH} characters` });

/** POST /api/tasks/{id}/photos: the upload URL the file was PUT to, and an optional description. */
export const addTaskPhotoBodySchema = z.object({
  photoURL: z.string({ error: "photoURL is required" }).min(1, { error: "photoURL is required" }).max(4000),
  alt: taskPhotoAltSchema.optional(),
});

export const taskPhotoParamsSchema = z.object({
  id: z.uuid({ error: "id must be a UUID" }),
  photoId: z.uuid({ error: "photoId must be a UUID" }),
});

export const taskPhotoImageParamsSchema = z.object({
  photoId: z.uuid({ error: "Photo not found" }),
  size: z.enum(["small", "medium"], { error: "size must be small or medium" }),
});

export const taskPhotoSchema = z.object({ id: z.uuid(), small: z.string(), medium: z.string(), alt: z.string() });
export type TaskPhoto = z.infer<typeof taskPhotoSchema>;

/** The first photo of a job-board card. */
export const taskPhotoThumbSchema = z.object({ small: z.string(), alt: z.string() });
export type TaskPhotoThumb = z.infer<typeof taskPhotoThumbSchema>;

export const taskPhotosResponseSchema = z.object({ photos: z.array(taskPhotoSchema) });
export type TaskPhotosResponse = z.infer<typeof taskPhotosResponseSchema>;
