import type { UploadKind } from "@shared/providers";
import { ApiError, apiRequest } from "@/lib/api";

// The three steps of an upload (spec §7): ask for a signed URL, PUT the file to it (through
// XMLHttpRequest for upload progress), then attach it as an ID document or a profile photo.

/** The upload-URL request failed; `status` drives the §8 handling (401 → sign in). */
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
    const message = typeof body.message === "string" ? body.message : `Upload URL request failed with status ${res.status}`;
    throw new UploadUrlError(res.status, message);
  }
  if (typeof body.uploadURL !== "string") throw new UploadUrlError(res.status, "Failed to get upload URL");
  return body.uploadURL;
}

export function putFile(url: string, file: File, onProgress: (percent: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    // Our server judges the bytes, not this header; a fixed type keeps S3 signatures simple.
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.withCredentials = url.startsWith("/");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      let message = `Upload failed with status ${xhr.status}`;
      try {
        const parsed = JSON.parse(xhr.responseText) as { message?: unknown };
        if (typeof parsed.message === "string") message = parsed.message.replace(/^file: /, "");
      } catch {
        // Not JSON (e.g. an S3 XML error): keep the status message.
      }
      reject(new ApiError(xhr.status, message));
    };
    xhr.onerror = () => reject(new Error("Upload failed. Please check your connection and try again."));
    xhr.send(file);
  });
}

export async function attachUpload(kind: UploadKind, uploadURL: string): Promise<string> {
  const res =
    kind === "id_document"
      ? await apiRequest<{ objectPath: string }>("PUT", "/api/provider/set-id-document", { idDocumentURL: uploadURL })
      : await apiRequest<{ objectPath: string }>("PUT", "/api/provider/set-profile-photo", { profilePhotoURL: uploadURL });
  return res.objectPath;
}
