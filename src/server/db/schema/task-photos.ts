import { bigint, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { uploads } from "./providers.js";
import { tasks } from "./tasks.js";

/**
 * A photo of a task (docs/decisions/030-task-photos.md): the poster's upload is the original
 * (private, EXIF and all); the two WebP images made from it, without metadata, are what everyone
 * sees. Deleting the task or the upload row (an account deletion) takes the photo with it.
 */
export const taskPhotos = pgTable(
  "task_photos",
  {
    id: uuid().primaryKey().defaultRandom(),
    taskId: uuid()
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    uploadId: uuid()
      .notNull()
      .unique()
      .references(() => uploads.id, { onDelete: "cascade" }),
    /** Storage keys of the derived images (longest side 320 and 1280 px). */
    smallKey: text().notNull(),
    mediumKey: text().notNull(),
    /** The poster's description; null means the default "Photo N of <title>". */
    alt: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** The order photos were added in (two can share a createdAt): the first is the card's and the link preview's. */
    seq: bigint({ mode: "number" }).generatedAlwaysAsIdentity(),
  },
  (t) => [index().on(t.taskId, t.seq)],
);
