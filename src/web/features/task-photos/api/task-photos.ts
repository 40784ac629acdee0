import { useMutation } from "@tanstack/react-query";
import type { TaskPhotosResponse } from "@shared/task-photos";
import { UPLOAD_FAILED_MESSAGE, UPLOAD_RULES, uploadTooLargeMessage, uploadTypeMessage } from "@shared/upload-rules";
import { ApiError, apiRequest } from "@/lib/api";

// POST /api/objects/upload {kind: "task_photo"}, the PUT of the file, then POST /api/tasks/{id}/photos
// with the upload URL; DELETE /api/tasks/{id}/photos/{photoId} (docs/product.md#task-photos).

const { types, maxBytes } = UPLOAD_RULES.task_photo;
export const PHOTO_ACCEPT = types.join(",");

/** What the browser can tell before sending anything; the server judges the bytes again. */
export function photoFileProblem(file: File): string | null {
  if (!types.includes(file.type)) return uploadTypeMessage("task_photo");
  if (file.size > maxBytes) return uploadTooLargeMessage("task_photo");
  return null;
}

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

export async function addTaskPhoto(taskId: string, file: File, alt: string): Promise<TaskPhotosResponse> {
  const { uploadURL } = await apiRequest<{ uploadURL: string }>("POST", "/api/objects/upload", { kind: "task_photo" });
  await putFile(uploadURL, file);
  return apiRequest<TaskPhotosResponse>("POST", `/api/tasks/${encodeURIComponent(taskId)}/photos`, {
    photoURL: uploadURL,
    ...(alt.trim() ? { alt: alt.trim() } : {}),
  });
}

/** Adding and removing; `onChanged` gets the task's photos as the server now has them. */
export function useTaskPhotoMutations(taskId: string, onChanged: (photos: TaskPhotosResponse["photos"]) => void) {
  const add = useMutation({
    mutationFn: ({ file, alt }: { file: File; alt: string }) => addTaskPhoto(taskId, file, alt),
    onSuccess: (res) => onChanged(res.photos),
  });
  const remove = useMutation({
    mutationFn: (photoId: string) =>
      apiRequest<TaskPhotosResponse>("DELETE", `/api/tasks/${encodeURIComponent(taskId)}/photos/${encodeURIComponent(photoId)}`),
    onSuccess: (res) => onChanged(res.photos),
  });
  return { add, remove };
}
