import { z } from "zod";
import { PASSWORD_MIN_LENGTH, USER_ROLES } from "./constants.js";
import { emailSchema, text } from "./common.js";

export const userSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** The same names in snake case: both spellings are read in different places of the web. */
  first_name: z.string(),
  last_name: z.string(),
  name: z.string(),
  profileImageUrl: z.string().nullable(),
  role: z.enum(USER_ROLES),
  isAdmin: z.boolean(),
  createdAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const passwordSchema = z
  .string({ error: "Password is required" })
  .min(PASSWORD_MIN_LENGTH, {
    error: `Password must be at least ${PASSWORD_MIN_LENGTH} characters: longer passwords are much harder to guess`,
  })
  .max(200, { error: "Password must be at most 200 characters" });

export const registerBodySchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  firstName: text(1, 60, "First name"),
  lastName: text(1, 60, "Last name"),
});
export type RegisterBody = z.infer<typeof registerBodySchema>;

export const loginBodySchema = z.object({
  email: emailSchema,
  password: z.string({ error: "Password is required" }).min(1, { error: "Password is required" }).max(200),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

/**
 * Only same-origin relative paths survive: "/dashboard?x=1" yes, "https://evil", "//evil",
 * "/\\evil" and anything without a leading slash go to "/".
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2000) return "/";
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/";
  // Control characters (CR, LF, TAB…) could split a Location header or be dropped by browsers.
  for (const ch of value) if (ch.charCodeAt(0) < 0x20) return "/";
  return value;
}
