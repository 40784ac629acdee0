import { z } from "zod";
import { passwordSchema } from "./auth.js";
import { text } from "./common.js";
import { objectPathSchema } from "./providers.js";

// The account's own settings: name, photo, password, sessions, export and deletion
// (docs/product.md, "Your account"; docs/decisions/021-account-settings-deletion-and-export.md).

export const profileBodySchema = z.object({
  firstName: text(1, 60, "First name"),
  lastName: text(1, 60, "Last name"),
});
export type ProfileBody = z.infer<typeof profileBodySchema>;

/** The file is uploaded first (POST /api/objects/upload, PUT, PUT /api/provider/set-profile-photo); this names its objectPath. */
export const setPhotoBodySchema = z.object({ photoURL: objectPathSchema });

/** The photo everyone sees, and a newer one waiting for an admin (approved providers only). */
export const accountPhotoSchema = z.object({
  profileImageUrl: z.string().nullable(),
  pendingProfileImageUrl: z.string().nullable(),
});
export type AccountPhoto = z.infer<typeof accountPhotoSchema>;

export const accountSchema = accountPhotoSchema.extend({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  /** Accounts that only sign in through single sign-on confirm deletion with their e-mail instead. */
  hasPassword: z.boolean(),
});
export type Account = z.infer<typeof accountSchema>;

export const changePasswordBodySchema = z.object({
  currentPassword: z.string({ error: "Current password is required" }).min(1, { error: "Current password is required" }).max(200),
  newPassword: passwordSchema,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

export const CURRENT_PASSWORD_WRONG = "Your current password is not right. Check it and try again.";

export const sessionViewSchema = z.object({
  id: z.uuid(),
  device: z.string(),
  lastSeenAt: z.string(),
  createdAt: z.string(),
  current: z.boolean(),
  /** How the sign-in was proven: "Password and authenticator app" (src/shared/security.ts describeProof). */
  proof: z.string(),
});
export type SessionView = z.infer<typeof sessionViewSchema>;
export const sessionListSchema = z.array(sessionViewSchema);

export const signedOutCountSchema = z.object({ signedOut: z.number().int() });

/** A password, or for single-sign-on-only accounts the account's e-mail typed out. */
export const deleteAccountBodySchema = z.object({
  password: z.string().max(200).optional(),
  email: z.string().max(254).optional(),
});
export type DeleteAccountBody = z.infer<typeof deleteAccountBodySchema>;

export const pendingPhotoSchema = z.object({
  userId: z.uuid(),
  name: z.string(),
  currentPhotoUrl: z.string().nullable(),
  pendingPhotoUrl: z.string(),
  submittedAt: z.string(),
});
export type PendingPhoto = z.infer<typeof pendingPhotoSchema>;
export const pendingPhotoListSchema = z.array(pendingPhotoSchema);

export const photoDecisionParamsSchema = z.object({ userId: z.uuid({ error: "userId must be a UUID" }) });
export const rejectPhotoBodySchema = z.object({ reason: text(1, 500, "Reason") });

const rows = z.array(z.record(z.string(), z.unknown()));

/** GET /api/account/export: everything kept about the caller, and nothing private of anyone else. */
export const accountExportSchema = z.object({
  exportedAt: z.string(),
  profile: z.record(z.string(), z.unknown()),
  providerApplication: z.record(z.string(), z.unknown()).nullable(),
  tasksPosted: rows,
  tasksDone: rows,
  messagesWritten: rows,
  reviewsGiven: rows,
  reviewsReceived: rows,
  payments: rows,
  tipsGiven: rows,
  tipsReceived: rows,
  payouts: rows,
  ledgerEntries: rows,
  notifications: rows,
  notificationPreferences: z.record(z.string(), z.boolean()),
  jobAlerts: rows,
  sessions: rows,
  auditEntries: rows,
  /** The security log about the account (docs/decisions/050-step-up-and-security-log.md). */
  securityEvents: rows,
});
export type AccountExport = z.infer<typeof accountExportSchema>;

/** "errandly-data-2026-06-01.json": the export's file name on the day it is made (UTC). */
export function exportFileName(now: Date): string {
  return `errandly-data-${now.toISOString().slice(0, 10)}.json`;
}

/**
 * "Chrome on macOS" from a User-Agent, simply: the first known browser and system found. Order
 * matters: Edge and Opera say "Chrome" too, Chrome says "Safari", Android says "Linux".
 */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const browsers: [RegExp, string][] = [
    [/Edg\//, "Edge"],
    [/OPR\/|Opera/, "Opera"],
    [/Firefox\/|FxiOS/, "Firefox"],
    [/HeadlessChrome/, "Headless Chrome"],
    [/Chrome\/|CriOS/, "Chrome"],
    [/Safari\//, "Safari"],
  ];
  const systems: [RegExp, string][] = [
    [/iPhone|iPad|iPod/, "iOS"],
    [/Android/, "Android"],
    [/Windows/, "Windows"],
    [/Mac OS X|Macintosh/, "macOS"],
    [/CrOS/, "ChromeOS"],
    [/Linux/, "Linux"],
  ];
  const browser = browsers.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = systems.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? "Unknown device";
}
