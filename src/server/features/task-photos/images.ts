import type * as Sharp from "sharp";
import { TASK_PHOTO_SIZES, TASK_PHOTO_TYPE_MESSAGE, type TaskPhotoSize } from "../../../shared/task-photos.js";
import { detectFileType } from "../../adapters/storage/file-type.js";
import { badRequest } from "../../http-errors.js";

// The images strangers see of a task photo (docs/decisions/030-task-photos.md): WebP, at most
// 320 and 1280 px on the longest side, turned upright by their EXIF orientation and then without
// any metadata (sharp drops EXIF, GPS included, unless asked to keep it; we never ask).

const PHOTO_TYPES = new Set(["image/jpeg", "image/png", "image/webp"]);
/** 40 megapixels: more than any phone camera, far less than a decompression bomb. */
const MAX_INPUT_PIXELS = 40_000_000;

export type DerivedImages = Record<TaskPhotoSize, Buffer>;

/**
 * sharp and its libvips are loaded with the first photo, not at start: about 28 MB of the server's
 * resident memory that an instance serving no photo never needs (issue 16's memory budget, docs/benchmarks.md).
 */
let loadedSharp: Promise<typeof Sharp> | null = null;
const loadSharp = () => (loadedSharp ??= import("sharp"));

export async function deriveImages(original: Buffer): Promise<DerivedImages> {
  const type = detectFileType(original);
  if (!type || !PHOTO_TYPES.has(type)) throw badRequest(TASK_PHOTO_TYPE_MESSAGE);
  const { default: sharp } = await loadSharp();
  try {
    const resize = (longest: number) =>
      sharp(original, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" })
        .rotate()
        .resize({ width: longest, height: longest, fit: "inside", withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer();
    const [small, medium] = await Promise.all([resize(TASK_PHOTO_SIZES.small), resize(TASK_PHOTO_SIZES.medium)]);
    return { small, medium };
  } catch {
    // A file with an image's first bytes that sharp cannot decode: the poster's problem to fix, not a 500.
    throw badRequest("photoURL: this image could not be read (it may be damaged). Please choose another photo.");
  }
}
