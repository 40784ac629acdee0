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
  /**
   * Admin powers in this session: the admin role on a session proven by two factors
   * (docs/decisions/068-admin-powers-need-two-factors.md). The web shows admin things by this, never by `role`.
   */
  isAdmin: z.boolean(),
  /** An admin signed in with one factor: no admin powers until they add (or sign in with) a second factor. */
  adminNeedsSecondFactor: z.boolean(),
  /** Whether the person opened a link we sent to `email` (or their identity provider vouched for it). */
  emailVerified: z.boolean(),
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
  /** Where the person was going (the sign-in page's returnTo); the verification link leads back there. */
  returnTo: z.string().max(2000).optional(),
});
export type RegisterBody = z.infer<typeof registerBodySchema>;

/** Every answer of the account e-mail routes (register, forgot password, resend, change e-mail): words for people. */
export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

/** One-time links: a 32-byte random token in base64url (43 characters). */
export const oneTimeTokenSchema = z
  .string({ error: "The link is incomplete: open it again from the e-mail" })
  .trim()
  .min(20, { error: "The link is incomplete: open it again from the e-mail" })
  .max(200, { error: "The link is incomplete: open it again from the e-mail" });

export const forgotPasswordBodySchema = z.object({ email: emailSchema });
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBodySchema>;

export const resetPasswordBodySchema = z.object({ token: oneTimeTokenSchema, password: passwordSchema });
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;

/** `password`: chosen on the verification page when the link was opened away from the browser that signed up (decision 044). */
export const verifyEmailBodySchema = z.object({ token: oneTimeTokenSchema, password: passwordSchema.optional() });
export type VerifyEmailBody = z.infer<typeof verifyEmailBodySchema>;

/** The confirmed person, and where to go next: where they were going when they signed up, else the dashboard. */
export const verifiedEmailResponseSchema = userSchema.extend({ returnTo: z.string() });
export type VerifiedEmailResponse = z.infer<typeof verifiedEmailResponseSchema>;

/** POST /api/auth/reset-password/check: whether a reset link still works, before a password is typed. */
export const resetLinkCheckBodySchema = z.object({ token: oneTimeTokenSchema });

/** The password is required for accounts that have one (OIDC-only accounts have none); the server checks. */
export const changeEmailBodySchema = z.object({
  newEmail: emailSchema,
  password: z.string().max(200).optional(),
});
export type ChangeEmailBody = z.infer<typeof changeEmailBodySchema>;

/** The 403 of posting, applying and paying before the address is verified (docs/product.md). */
export const VERIFY_EMAIL_FIRST_MESSAGE =
  "Verify your e-mail address first: open the link we sent you, or send a new one from the banner at the top of the page.";
export const RESET_LINK_INVALID_MESSAGE = "This reset link has expired or was already used";
export const VERIFY_LINK_INVALID_MESSAGE = "This link has expired or was already used";
/** The 409 of a sign-up link opened away from the browser that signed up: the page then asks for a password (decision 044). */
export const VERIFY_CHOOSE_PASSWORD_MESSAGE =
  "Choose a password to finish confirming your address. This link was opened outside the browser that signed up, so we ask whoever holds the inbox to set the password.";

export const loginBodySchema = z.object({
  email: emailSchema,
  password: z.string({ error: "Password is required" }).min(1, { error: "Password is required" }).max(200),
});
export type LoginBody = z.infer<typeof loginBodySchema>;
