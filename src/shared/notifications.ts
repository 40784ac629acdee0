import { z } from "zod";

/** What a user can be told about; each kind's e-mail can be turned off (in-app ones stay). */
export const NOTIFICATION_KINDS = [
  "task_claimed",
  "payment_received",
  "work_started",
  "work_completed",
  "chat_message",
  "application_decided",
  "payout_released",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const notificationSchema = z.object({
  id: z.uuid(),
  kind: z.enum(NOTIFICATION_KINDS),
  title: z.string(),
  body: z.string(),
  taskId: z.uuid().nullable(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;
