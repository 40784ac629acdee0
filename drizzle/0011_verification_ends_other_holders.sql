ALTER TABLE "auth_tokens" ADD COLUMN "pending_password_hash" text;--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD COLUMN "registrant_hash" text;--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD COLUMN "return_to" text;