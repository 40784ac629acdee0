import { useMutation } from "@tanstack/react-query";
import type { TaskPhotosResponse } from "@shared/task-photos";
import { apiRequest } from "@/lib/api";
import { uploadAccept, uploadFile, uploadProblem } from "@/lib/upload-file";

// POST /api/objects/upload {kind: "task_photo"}, the PUT of the file, then POST /api/tasks/{id}/photos
// with the upload URL; DELETE /api/tasks/{id}/photos/{photoId} (docs/product.md#task-photos).

export const PHOTO_ACCEPT = uploadAccept("task_photo");

/** What the browser can tell before sending anything; the server judges the bytes again. */
export const photoFileProblem = (file: File): string | null => uploadProblem("task_photo", file);

export async function addTaskPhoto(taskId: string, file: File, alt: string): Promise<TaskPhotosResponse> {
  const uploadURL = await uploadFile("task_photo", file);
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
