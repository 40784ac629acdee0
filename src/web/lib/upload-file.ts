import { UPLOAD_FAILED_MESSAGE, UPLOAD_RULES, uploadTooLargeMessage, uploadTypeMessage, type UploadKind } from "@shared/upload-rules";
import { ApiError, apiRequest } from "./api";

// The browser's half of the one upload flow (docs/decisions/009-uploads-and-storage.md) for files a
// feature attaches by their upload link (task and dispute photos): ask for a link of the kind, PUT
// the bytes to it, and hand the link to the feature's own route.

/** What the browser can tell before sending anything; the server judges the bytes again. */
export function uploadProblem(kind: UploadKind, file: File): string | null {
  const { types, maxBytes } = UPLOAD_RULES[kind];
  if (!types.includes(file.type)) return uploadTypeMessage(kind);
  if (file.size > maxBytes) return uploadTooLargeMessage(kind);
  return null;
}

/** The `accept` attribute of a file input for `kind`. */
export const uploadAccept = (kind: UploadKind) => UPLOAD_RULES[kind].types.join(",");

async function putFile(url: string, file: File): Promise<void> {
  const res = await fetch(url, {
    method: "PUT",
    body: file,
    // Our server judges the bytes, not this header.
    headers: { "Content-Type": "application/octet-stream" },
    credentials: url.startsWith("/") ? "include" : "omit",
  });
  if (res.ok) return;
  let message = UPLOAD_FAILED_MESSAGE;
  try {
    const parsed = (await res.json()) as { message?: unknown };
    if (typeof parsed.message === "string") message = parsed.message;
  } catch {
    // Not JSON (an S3 XML error): keep the status message.
  }
  throw new ApiError(res.status, message);
}

/** POST /api/objects/upload {kind}, then the PUT of the file: answers the upload link to attach. */
export async function uploadFile(kind: UploadKind, file: File): Promise<string> {
  const { uploadURL } = await apiRequest<{ uploadURL: string }>("POST", "/api/objects/upload", { kind });
  await putFile(uploadURL, file);
  return uploadURL;
}
