CREATE TYPE "public"."dispute_status" AS ENUM('open', 'resolved');--> statement-breakpoint
ALTER TYPE "public"."ledger_kind" ADD VALUE 'split';--> statement-breakpoint
ALTER TYPE "public"."ledger_kind" ADD VALUE 'guarantee';--> statement-breakpoint
ALTER TYPE "public"."ledger_kind" ADD VALUE 'late_fee';--> statement-breakpoint
CREATE TABLE "dispute_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"dispute_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"seq" bigserial NOT NULL
);
--> statement-breakpoint
CREATE TABLE "disputes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"task_id" uuid NOT NULL,
	"opened_by" uuid NOT NULL,
	"reason" text NOT NULL,
	"status" "dispute_status" DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_admin_action_at" timestamp with time zone,
	"resolved_by" uuid,
	"resolved_at" timestamp with time zone,
	"resolution_reason" text,
	"refund_cents" integer,
	"release_cents" integer,
	"provider_share_cents" integer,
	"guarantee_cents" integer,
	"recover_from_provider" boolean,
	CONSTRAINT "disputes_resolved_check" CHECK (("disputes"."status" = 'resolved') = ("disputes"."resolved_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "dispute_messages" ADD CONSTRAINT "dispute_messages_dispute_id_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."disputes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute_messages" ADD CONSTRAINT "dispute_messages_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_opened_by_users_id_fk" FOREIGN KEY ("opened_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dispute_messages_dispute_id_seq_index" ON "dispute_messages" USING btree ("dispute_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "disputes_open_task_id_key" ON "disputes" USING btree ("task_id") WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "disputes_status_created_at_index" ON "disputes" USING btree ("status","created_at");