import { ID_DOCUMENT_MAX_BYTES, PROFILE_PHOTO_MAX_BYTES, TASK_PHOTO_MAX_BYTES } from "./constants.js";

// What each kind of upload may be. Apart from the zod contracts of providers.ts: the upload fields
// of the settings and application pages check a file before sending it, and zod loads only with the
// forms that need it (issue 17, docs/decisions/041-forms-loaded-on-first-use.md).

export const UPLOAD_KINDS = ["id_document", "profile_photo", "task_photo", "dispute_photo"] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

/** A photo of a task, or of a reported problem's evidence (docs/decisions/057): one rule for both. */
const PHOTO_RULE = { maxBytes: TASK_PHOTO_MAX_BYTES, types: ["image/jpeg", "image/png", "image/webp"] } as const;

/** Detected by magic bytes on the server; the browser's claim is never trusted. */
export const UPLOAD_RULES: Record<UploadKind, { maxBytes: number; types: readonly string[] }> = {
  id_document: { maxBytes: ID_DOCUMENT_MAX_BYTES, types: ["image/jpeg", "image/png", "image/webp", "application/pdf"] },
  profile_photo: { maxBytes: PROFILE_PHOTO_MAX_BYTES, types: ["image/jpeg", "image/png", "image/webp"] },
  task_photo: PHOTO_RULE,
  dispute_photo: PHOTO_RULE,
};

const TYPE_NAMES: Record<string, string> = {
  "image/jpeg": "JPEG",
  "image/png": "PNG",
  "image/webp": "WebP",
  "application/pdf": "PDF",
};

/** What an upload asked for without a kind may be until its kind is known: the widest of every rule. */
const ANY_KIND = {
  maxBytes: Math.max(...Object.values(UPLOAD_RULES).map((r) => r.maxBytes)),
  types: [...new Set(Object.values(UPLOAD_RULES).flatMap((r) => r.types))],
};

/** The rule of `kind`; null is an upload whose kind is not known yet. */
export const uploadRule = (kind: UploadKind | null) => (kind ? UPLOAD_RULES[kind] : ANY_KIND);

/** "JPEG, PNG or WebP", "JPEG, PNG, WebP or PDF": the types `kind` allows, as people read them. */
export function uploadTypeList(kind: UploadKind | null): string {
  const names = uploadRule(kind).types.map((type) => TYPE_NAMES[type] ?? type);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : (names[0] ?? "");
}

/** "5 MB": a size limit as people read it. */
export const uploadMegabytes = (bytes: number) => `${Math.round((bytes / 1_048_576) * 10) / 10} MB`;

// Why a file was refused, each a full sentence saying what to do next (docs/product.md#verification);
// the server answers them and the upload fields say them before sending.

export const uploadTypeMessage = (kind: UploadKind | null) =>
  `This file is not a ${uploadTypeList(kind)} file. Choose a file in one of those formats and upload it again.`;

export const uploadTooLargeMessage = (kind: UploadKind | null) =>
  `This file is larger than ${uploadMegabytes(uploadRule(kind).maxBytes)}. Choose a smaller file and upload it again.`;

export const EMPTY_UPLOAD_MESSAGE = "This file is empty. Choose another file and upload it again.";

/** A refusal that says nothing we can read (an S3 error page, a proxy's): what to try next. */
export const UPLOAD_FAILED_MESSAGE = "The upload failed. Check your connection and try again; if it fails again, choose another file.";
