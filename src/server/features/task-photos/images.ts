import { TASK_PHOTO_SIZES, type TaskPhotoSize } from "../../../shared/task-photos.js";
import { toPublicImage } from "../../public-images.js";

// The images strangers see of a task photo (docs/decisions/030-task-photos.md): WebP, at most
// 320 and 1280 px on the longest side, made by the one public-image pipeline (upright, no metadata).

export type DerivedImages = Record<TaskPhotoSize, Buffer>;

export async function deriveImages(original: Buffer): Promise<DerivedImages> {
  const [small, medium] = await Promise.all([toPublicImage(original, TASK_PHOTO_SIZES.small), toPublicImage(original, TASK_PHOTO_SIZES.medium)]);
  return { small, medium };
}
