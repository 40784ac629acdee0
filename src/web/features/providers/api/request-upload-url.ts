import { UPLOAD_FAILED_MESSAGE, type UploadKind } from "@shared/upload-rules";

// POST /api/objects/upload: the first of an upload's three steps (docs/decisions/009-uploads-and-
// storage.md): a signed URL to PUT the file to (put-file.ts), which is then attached
// (set-id-document.ts, set-profile-photo.ts).

/** The upload-URL request failed; `status` drives the failure handling of docs/product.md#web-app (401 → sign in). */
export class UploadUrlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "UploadUrlError";
  }
}

export async function requestUploadUrl(kind: UploadKind): Promise<string> {
  const res = await fetch("/api/objects/upload", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ kind }),
    credentials: "include",
  });
  let body: { uploadURL?: unknown; message?: unknown } = {};
  try {
    body = (await res.json()) as typeof body;
  } catch {
    // Not JSON: fall back to the status below.
  }
  if (!res.ok) {
    const message = typeof body.message === "string" ? body.message : UPLOAD_FAILED_MESSAGE;
    throw new UploadUrlError(res.status, message);
  }
  if (typeof body.uploadURL !== "string") throw new UploadUrlError(res.status, UPLOAD_FAILED_MESSAGE);
  return body.uploadURL;
}
