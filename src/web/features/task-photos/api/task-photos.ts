import { useMutation } from "@tanstack/react-query";
import { TASK_PHOTO_MAX_BYTES } from "@shared/constants";
import type { TaskPhotosResponse } from "@shared/task-photos";
import { ApiError, apiRequest } from "@/lib/api";

// POST /api/objects/upload {kind: "task_photo"}, the PUT of the file, then POST /api/tasks/{id}/photos
// with the upload URL; DELETE /api/tasks/{id}/photos/{photoId} (docs/product.md#task-photos).

const PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp"];
export const PHOTO_ACCEPT = PHOTO_TYPES.join(",");

/** What the browser can tell before sending anything; the server judges the bytes again. */
export function photoFileProblem(file: File): string | null {
  if (!PHOTO_TYPES.includes(file.type)) return "Photos must be JPEG, PNG or WebP. Choose another file.";
  if (file.size > TASK_PHOTO_MAX_BYTES) return "This photo is larger than 10 MB. Choose a smaller one.";
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
  let message = `Upload failed with status ${res.status}`;
  try {
    const parsed = (await res.json()) as { message?: unknown };
    if (typeof parsed.message === "string") message = parsed.message.replace(/^file: /, "");
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
