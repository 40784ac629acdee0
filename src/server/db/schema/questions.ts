import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tasks } from "./tasks.js";
import { users } from "./users.js";

/**
 * A provider's public question on a task and the poster's one answer (docs/product.md, Public
 * questions; docs/decisions/063-public-questions.md). Both texts are stored masked: the original
 * phone numbers, e-mail addresses and links are never kept.
 */
export const taskQuestions = pgTable(
  "task_questions",
  {
    id: uuid().primaryKey().defaultRandom(),
    taskId: uuid()
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    askerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    body: text().notNull(),
    answer: text(),
    answeredAt: timestamp({ withTimezone: true }),
    /** Set by the poster or an admin: hidden questions are shown to them alone. */
    hiddenAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index("task_questions_task_idx").on(t.taskId, t.createdAt)],
);
