import type * as Sharp from "sharp";
import { UPLOAD_RULES } from "../shared/upload-rules.js";
import { detectFileType } from "./adapters/storage/file-type.js";
import { badRequest } from "./http-errors.js";

// The one pipeline every image that strangers see goes through (task photos, decision 030; profile
// and application photos, decision 009): turned upright by its EXIF orientation, shrunk to a bound,
// re-encoded as WebP and written without any metadata (sharp drops EXIF, GPS and Artist included,
// unless asked to keep it; we never ask). The uploaded original stays private.

/** 40 megapixels: more than any phone camera, far less than a decompression bomb. */
const MAX_INPUT_PIXELS = 40_000_000;

export const UNREADABLE_IMAGE_MESSAGE = "This image could not be read (it may be damaged). Choose another photo and upload it again.";

/**
 * sharp and its libvips are loaded with the first photo, not at start: about 28 MB of the server's
 * resident memory that an instance serving no photo never needs (issue 16's memory budget, docs/benchmarks.md).
 */
let loadedSharp: Promise<typeof Sharp> | null = null;
const loadSharp = () => (loadedSharp ??= import("sharp"));

/**
 * A WebP image of `original` whose longest side is at most `longest` px. Only JPEG, PNG and WebP
 * (by their bytes) are decoded; anything else, or a file sharp cannot read, is a 400, never a 500.
 */
export async function toPublicImage(original: Buffer, longest: number): Promise<Buffer> {
  const type = detectFileType(original);
  if (!type || !UPLOAD_RULES.profile_photo.types.includes(type)) throw badRequest(UNREADABLE_IMAGE_MESSAGE);
  const { default: sharp } = await loadSharp();
  try {
    return await sharp(original, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" })
      .rotate()
      .resize({ width: longest, height: longest, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
  } catch {
    throw badRequest(UNREADABLE_IMAGE_MESSAGE);
  }
}

/**
 * Where the public image of a profile photo upload is kept, beside its private original: named by
 * the upload's id, so no column records it and whoever deletes the upload deletes both.
 */
export const publicPhotoKey = (uploadId: string) => `publicphotos/${uploadId}`;
