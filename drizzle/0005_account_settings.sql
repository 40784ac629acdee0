ALTER TABLE "sessions" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "created_ip" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pending_profile_image_url" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pending_profile_image_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
-- One photo per person (docs/decisions/021-account-settings-deletion-and-export.md): an approved
-- provider's existing photo becomes their user photo.
UPDATE "users" SET "profile_image_url" = p."profile_photo_path"
  FROM "provider_profiles" p
  WHERE p."user_id" = "users"."id" AND p."verification_status" = 'approved'
    AND p."profile_photo_path" IS NOT NULL AND "users"."profile_image_url" IS NULL;
