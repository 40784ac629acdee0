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
  "photo_decided",
  "task_declined",
  "task_cancelled",
  "task_alert",
  "provider_withdrew",
  "receipt",
  "dispute",
  "moderation",
  "offer_received",
  "offer_decided",
  "question_asked",
  "question_answered",
  "task_requested",
  "request_ended",
  "request_cancelled",
  // Time and turning up (docs/decisions/074-time-and-turning-up.md).
  "task_booked",
  "task_reminder",
  "time_proposed",
  "time_decided",
  "provider_on_way",
  "provider_late",
  "provider_no_show",
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

export const notificationListSchema = z.object({
  notifications: z.array(notificationSchema),
  unreadCount: z.number().int(),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

export const markNotificationsReadBodySchema = z.object({
  /** Absent: every notification of the caller. */
  ids: z.array(z.uuid({ error: "ids must be UUIDs" })).max(200).optional(),
});

/** Per kind: whether e-mail is on, and whether it is pushed to devices (opt-in). In-app notices are always kept. */
export const notificationPreferencesSchema = z.object({
  email: z.record(z.enum(NOTIFICATION_KINDS), z.boolean()),
  push: z.record(z.enum(NOTIFICATION_KINDS), z.boolean()),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

const kindSwitches = z.partialRecord(z.enum(NOTIFICATION_KINDS, { error: "Unknown notification kind" }), z.boolean());
export const updateNotificationPreferencesSchema = z.object({
  email: kindSwitches.optional(),
  push: kindSwitches.optional(),
});

export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  task_claimed: "A provider claims my task",
  payment_received: "A payment is received",
  work_started: "Work starts on my task",
  work_completed: "Work on my task is completed",
  chat_message: "A new chat message while I am away",
  application_decided: "My provider application is decided",
  payout_released: "A payout is released",
  photo_decided: "My new profile photo is approved or declined",
  task_declined: "A poster chooses another provider for a task I claimed",
  task_cancelled: "A task I work on is cancelled",
  task_alert: "A new task matches my job alerts (at most one e-mail every 15 minutes)",
  provider_withdrew: "The provider of my task withdraws before starting",
  receipt: "A receipt for my payment, tip or refund",
  dispute: "A problem is reported, answered or resolved on my task",
  moderation: "An administrator acts on my account, my tasks or my reviews",
  offer_received: "A provider makes or changes an offer on my task",
  offer_decided: "The poster accepts my offer or chooses another",
  question_asked: "A provider asks a public question on my task",
  question_answered: "The poster answers my question on their task",
  task_requested: "A poster requests me for a task",
  request_ended: "A provider I requested declines or does not answer",
  request_cancelled: "A poster cancels a task they requested me for",
  task_booked: "A poster books my free time (instant booking)",
  task_reminder: "Reminders the day before and the hour before a booked task",
  time_proposed: "The other side proposes a new time for a task",
  time_decided: "The other side accepts or declines the new time I proposed",
  provider_on_way: "My provider is on the way",
  provider_late: "My provider has not started 30 minutes after the booked time",
  provider_no_show: "A poster reports that I did not show up",
};
