import { asc, eq } from "drizzle-orm";
import { defaultPhotoAlt, taskPhotoUrl, type TaskPhoto } from "../../shared/task-photos.js";
import type { Db } from "./client.js";
import { taskPhotos } from "./schema/task-photos.js";

// A task's photos as everyone who can see the task sees them (docs/decisions/030-task-photos.md):
// one definition for the task page (tasks feature) and the photo routes' answers (task-photos).

/** A photo as stored: its id and the poster's description, if any. */
export interface TaskPhotoRow {
  id: string;
  alt: string | null;
}

/** Oldest first; the poster's description, or "Photo N of <title>". */
export async function listTaskPhotos(db: Db, taskId: string, taskTitle: string): Promise<TaskPhoto[]> {
  const rows = await db
    .select({ id: taskPhotos.id, alt: taskPhotos.alt })
    .from(taskPhotos)
    .where(eq(taskPhotos.taskId, taskId))
    .orderBy(asc(taskPhotos.seq));
  return toTaskPhotos(rows, taskTitle);
}

/** Rows in seq order become the photos everyone sees. */
export function toTaskPhotos(rows: readonly TaskPhotoRow[], taskTitle: string): TaskPhoto[] {
  return rows.map((row, i) => ({
    id: row.id,
    small: taskPhotoUrl(row.id, "small"),
    medium: taskPhotoUrl(row.id, "medium"),
    alt: row.alt ?? defaultPhotoAlt(i + 1, taskTitle),
  }));
}
