import { z } from "zod";
import { backgroundCheckSchema } from "./background-checks.js";
import { boardFilterFields, checkFilterRules } from "./task-filter-schemas.js";
import { emailSchema, stateCodeSchema, text } from "./common.js";
import { CATEGORY_VALUES, TASK_STATUSES, VERIFICATION_STATUSES, WEEKDAYS } from "./constants.js";
import { dollarsSchema } from "./money-schemas.js";
import { UPLOAD_KINDS } from "./upload-rules.js";

// Provider applications, profiles, uploads, admin review and the public directory (docs/product.md, Verification).

export const UPLOAD_URL_TTL_MS = 10 * 60_000;

/** "/objects/<uuid>": what the API hands out and accepts for an uploaded file. */
export const objectPathSchema = z
  .string({ error: "is required" })
  .regex(/^\/objects\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, { error: "must be an uploaded file path" });

export const serviceTypesSchema = z
  .array(z.enum(CATEGORY_VALUES, { error: "must be known service types" }), { error: "must be a list" })
  .min(1, { error: "Please select at least one service type." })
  .max(CATEGORY_VALUES.length)
  .transform((list) => [...new Set(list)]);

export const availabilitySchema = z.partialRecord(z.enum(WEEKDAYS, { error: "must be weekday names" }), z.boolean());
export type Availability = z.infer<typeof availabilitySchema>;

export const phoneSchema = z
  .string({ error: "is required" })
  .trim()
  .max(30, { error: "must be at most 30 characters" })
  .refine((v) => v.replace(/\D/g, "").length >= 10, { error: "must have at least 10 digits" });

export const zipCodeSchema = z
  .string({ error: "is required" })
  .trim()
  .regex(/^\d{5}(-\d{4})?$/, { error: "must be 5 digits or 5+4 (12345-6789)" });

export const applicationBodySchema = z.object({
  fullName: text(1, 120, "fullName"),
  email: emailSchema,
  phone: phoneSchema,
  address: text(1, 200, "address"),
  city: text(1, 100, "city"),
  state: stateCodeSchema,
  zipCode: zipCodeSchema,
  serviceTypes: serviceTypesSchema,
  idDocumentUrl: objectPathSchema,
  profilePhotoUrl: objectPathSchema,
  availability: availabilitySchema.default({}),
  bio: text(1, 2000, "bio"),
  agreeTerms: z.literal(true, { error: "You must agree to the terms" }),
});
export type ApplicationBody = z.infer<typeof applicationBodySchema>;
export type ApplicationInput = z.input<typeof applicationBodySchema>;

export const profilePatchSchema = z
  .object({
    bio: text(1, 2000, "bio").optional(),
    hourlyRate: dollarsSchema.max(10_000, { error: "must be at most 10000" }).nullable().optional(),
    serviceTypes: serviceTypesSchema.optional(),
    availability: availabilitySchema.optional(),
    profilePhotoUrl: objectPathSchema.optional(),
  })
  .strict();
export type ProfilePatch = z.infer<typeof profilePatchSchema>;
export type ProfilePatchInput = z.input<typeof profilePatchSchema>;

export const verificationStatusSchema = z.enum(VERIFICATION_STATUSES);

export const providerProfileSchema = z.object({
  id: z.uuid(),
  userId: z.uuid(),
  verificationStatus: verificationStatusSchema,
  fullName: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  zipCode: z.string(),
  serviceTypes: z.array(z.string()),
  bio: z.string(),
  hourlyRate: z.number().nullable(),
  availability: availabilitySchema,
  idDocumentUrl: z.string().nullable(),
  profilePhotoUrl: z.string().nullable(),
  payoutsEnabled: z.boolean(),
  stripeOnboardingComplete: z.boolean(),
  stripeAccountId: z.string().nullable(),
  rejectionReason: z.string().nullable(),
  submittedAt: z.string(),
  user: z.object({ firstName: z.string(), lastName: z.string(), email: z.string() }),
  /** The latest background check; null before any (docs/decisions/064-background-checks.md). */
  backgroundCheck: backgroundCheckSchema.nullable(),
});
export type ProviderProfile = z.infer<typeof providerProfileSchema>;

export const currentTaskSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  description: z.string(),
  budget: z.number(),
  category: z.string(),
  status: z.enum(TASK_STATUSES),
});

export const activeProviderSchema = providerProfileSchema.extend({ currentTask: currentTaskSchema.nullable() });
export type ActiveProvider = z.infer<typeof activeProviderSchema>;

/** A directory card: public, so the display name only ("Maria G."; docs/product.md, "People you can see"). */
export const publicProviderSchema = z.object({
  id: z.uuid(),
  /** The provider's user id: their public profile is /users/{userId}. */
  userId: z.uuid(),
  displayName: z.string(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  bio: z.string().nullable(),
  profilePhotoUrl: z.string().nullable(),
  rating: z.string().nullable(),
  reviewCount: z.number().int(),
  serviceTypes: z.array(z.string()),
  hourlyRate: z.number().nullable(),
  verificationStatus: verificationStatusSchema,
  /** Tasks they completed as provider. */
  completedTasks: z.number().int(),
  /**
   * Miles from `near` to the centre of the provider's ZIP code (never their street address), rounded
   * like the job board's; null without `near` (docs/product.md#verification, "Directory filters").
   */
  distanceMiles: z.number().nullable(),
});
export type PublicProvider = z.infer<typeof publicProviderSchema>;

export const PROVIDER_SORTS = ["name", "rating", "completed"] as const;

/** GET /api/providers: the job board's place filter, a service type, a lowest rating and a sort. */
export const providersQuerySchema = z
  .object({
    near: boardFilterFields.near,
    radiusMiles: boardFilterFields.radiusMiles,
    serviceType: z.enum(CATEGORY_VALUES, { error: "serviceType must be one of the listed service types" }).optional(),
    minRating: z.coerce
      .number({ error: "minRating must be a number from 1 to 5" })
      .min(1, { error: "minRating must be a number from 1 to 5" })
      .max(5, { error: "minRating must be a number from 1 to 5" })
      .optional(),
    sort: z.enum(PROVIDER_SORTS, { error: "sort must be name, rating or completed" }).default("name"),
  })
  .superRefine(checkFilterRules);

export const uploadRequestSchema = z
  .object({ kind: z.enum(UPLOAD_KINDS, { error: "must be id_document or profile_photo" }).optional() })
  .default({});
export const uploadUrlResponseSchema = z.object({ uploadURL: z.string() });
export const setIdDocumentBodySchema = z.object({ idDocumentURL: z.string({ error: "is required" }).min(1).max(4000) });
export const setProfilePhotoBodySchema = z.object({ profilePhotoURL: z.string({ error: "is required" }).min(1).max(4000) });
export const objectPathResponseSchema = z.object({ objectPath: z.string() });

export const rejectBodySchema = z.object({ reason: text(1, 1000, "reason") });

export const applicationsQuerySchema = z.object({
  status: z.enum(["pending", "under_review", "all"]).default("all"),
});

export const auditEntrySchema = z.object({
  id: z.uuid(),
  actorId: z.uuid().nullable(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  reason: z.string().nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const outboxEntrySchema = z.object({
  id: z.uuid(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  kind: z.string(),
  status: z.string(),
  error: z.string().nullable(),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  createdAt: z.string(),
});
export type OutboxEntry = z.infer<typeof outboxEntrySchema>;
