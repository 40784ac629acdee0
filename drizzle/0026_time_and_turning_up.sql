CREATE TABLE "calendar_feeds" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "calendar_feeds_tokenHash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "provider_bookings" (
	"task_id" uuid PRIMARY KEY NOT NULL,
	"provider_id" uuid NOT NULL,
	"during" "tstzrange" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider_calendars" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"time_zone" text NOT NULL,
	"min_notice_hours" integer NOT NULL,
	"max_tasks_per_day" integer NOT NULL,
	"instant_booking" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider_days_off" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "provider_days_off_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
CREATE TABLE "provider_hours" (
	"user_id" uuid NOT NULL,
	"weekday" smallint NOT NULL,
	"starts" time NOT NULL,
	"ends" time NOT NULL,
	CONSTRAINT "provider_hours_user_id_weekday_starts_pk" PRIMARY KEY("user_id","weekday","starts")
);
--> statement-breakpoint
CREATE TABLE "task_no_shows" (
	"task_id" uuid PRIMARY KEY NOT NULL,
	"provider_id" uuid NOT NULL,
	"reported_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_reminders" (
	"task_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"recipient_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "task_reminders_once" UNIQUE("task_id","kind","recipient_id","starts_at")
);
--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "attachments" jsonb;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "duration_minutes" integer DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "estimated_minutes" integer;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "proposed_start_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "proposed_by_id" uuid;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "on_my_way_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "arrival_estimate_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_bookings" ADD CONSTRAINT "provider_bookings_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_bookings" ADD CONSTRAINT "provider_bookings_provider_id_users_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_calendars" ADD CONSTRAINT "provider_calendars_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_days_off" ADD CONSTRAINT "provider_days_off_user_id_provider_calendars_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."provider_calendars"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_hours" ADD CONSTRAINT "provider_hours_user_id_provider_calendars_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."provider_calendars"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_no_shows" ADD CONSTRAINT "task_no_shows_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_no_shows" ADD CONSTRAINT "task_no_shows_provider_id_users_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_reminders" ADD CONSTRAINT "task_reminders_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_reminders" ADD CONSTRAINT "task_reminders_recipient_id_users_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "task_no_shows_provider_id_index" ON "task_no_shows" USING btree ("provider_id");--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_proposed_by_id_users_id_fk" FOREIGN KEY ("proposed_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tasks_claimed_schedule_idx" ON "tasks" USING btree ("scheduled_date") WHERE "tasks"."status" = 'claimed' and "tasks"."scheduled_date" is not null;