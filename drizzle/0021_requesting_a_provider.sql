CREATE TYPE "public"."task_request_fallback" AS ENUM('open', 'cancel');--> statement-breakpoint
ALTER TYPE "public"."task_status" ADD VALUE 'requested';--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "requested_provider_id" uuid;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "request_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "request_fallback" "task_request_fallback";--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_requested_provider_id_users_id_fk" FOREIGN KEY ("requested_provider_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tasks_request_expires_idx" ON "tasks" USING btree ("request_expires_at") WHERE "tasks"."request_expires_at" is not null;