CREATE TYPE "public"."offer_status" AS ENUM('open', 'withdrawn', 'accepted', 'closed');--> statement-breakpoint
CREATE TYPE "public"."task_hiring_mode" AS ENUM('first_to_claim', 'offers');--> statement-breakpoint
CREATE TABLE "task_offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"task_id" uuid NOT NULL,
	"provider_id" uuid NOT NULL,
	"price_cents" integer NOT NULL,
	"message" text NOT NULL,
	"availability" text NOT NULL,
	"status" "offer_status" DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "task_offers_taskId_providerId_unique" UNIQUE("task_id","provider_id")
);
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "hiring_mode" "task_hiring_mode" DEFAULT 'first_to_claim' NOT NULL;--> statement-breakpoint
ALTER TABLE "task_offers" ADD CONSTRAINT "task_offers_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_offers" ADD CONSTRAINT "task_offers_provider_id_users_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "task_offers_provider_open_idx" ON "task_offers" USING btree ("provider_id") WHERE "task_offers"."status" = 'open';