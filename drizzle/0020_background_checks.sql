CREATE TYPE "public"."background_check_adapter" AS ENUM('manual', 'checkr');--> statement-breakpoint
CREATE TYPE "public"."background_check_result" AS ENUM('clear', 'consider');--> statement-breakpoint
CREATE TABLE "background_check_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "background_checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"adapter" "background_check_adapter" NOT NULL,
	"checked_what" text NOT NULL,
	"result" "background_check_result",
	"reason" text,
	"recorded_by" uuid,
	"candidate_id" text,
	"invitation_id" text,
	"invitation_url" text,
	"report_id" text,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "background_checks_reportId_unique" UNIQUE("report_id")
);
--> statement-breakpoint
ALTER TABLE "background_checks" ADD CONSTRAINT "background_checks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "background_checks" ADD CONSTRAINT "background_checks_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "background_checks_user_id_created_at_index" ON "background_checks" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "background_checks_candidate_id_index" ON "background_checks" USING btree ("candidate_id");