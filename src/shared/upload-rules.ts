import { ID_DOCUMENT_MAX_BYTES, PROFILE_PHOTO_MAX_BYTES, TASK_PHOTO_MAX_BYTES } from "./constants.js";

// What each kind of upload may be. Apart from the zod contracts of providers.ts: the upload fields
// of the settings and application pages check a file before sending it, and zod loads only with the
// forms that need it (issue 17, docs/decisions/041-forms-loaded-on-first-use.md).

export const UPLOAD_KINDS = ["id_document", "profile_photo", "task_photo"] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

/** Detected by magic bytes on the server; the browser's claim is never trusted. */
export const UPLOAD_RULES: Record<UploadKind, { maxBytes: number; types: readonly string[] }> = {
  id_document: { maxBytes: ID_DOCUMENT_MAX_BYTES, types: ["image/jpeg", "image/png", "image/webp", "application/pdf"] },
  profile_photo: { maxBytes: PROFILE_PHOTO_MAX_BYTES, types: ["image/jpeg", "image/png", "image/webp"] },
  task_photo: { maxBytes: TASK_PHOTO_MAX_BYTES, types: ["image/jpeg", "image/png", "image/webp"] },
};
