import { UPLOAD_FAILED_MESSAGE } from "@shared/upload-rules";
import { ApiError } from "@/lib/api";

/**
 * PUT {uploadURL}: the file's bytes to the signed URL of request-upload-url.ts, through
 * XMLHttpRequest because fetch reports no upload progress.
 */
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
      let message = UPLOAD_FAILED_MESSAGE;
      try {
        const parsed = JSON.parse(xhr.responseText) as { message?: unknown };
        if (typeof parsed.message === "string") message = parsed.message;
      } catch {
        // Not JSON (e.g. an S3 XML error): keep the status message.
      }
      reject(new ApiError(xhr.status, message));
    };
    xhr.onerror = () => reject(new Error(UPLOAD_FAILED_MESSAGE));
    xhr.send(file);
  });
}
