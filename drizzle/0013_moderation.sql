CREATE TYPE "public"."report_target" AS ENUM('user', 'task', 'message', 'review');--> statement-breakpoint
CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reporter_id" uuid,
	"target_type" "report_target" NOT NULL,
	"target_id" uuid NOT NULL,
	"subject_id" uuid,
	"reason" text NOT NULL,
	"details" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	"closed_by" uuid,
	"outcome" text,
	"outcome_note" text,
	CONSTRAINT "reports_closed_outcome_check" CHECK (("reports"."closed_at" is null) = ("reports"."outcome" is null))
);
--> statement-breakpoint
CREATE TABLE "user_blocks" (
	"blocker_id" uuid NOT NULL,
	"blocked_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_blocks_blocker_id_blocked_id_pk" PRIMARY KEY("blocker_id","blocked_id"),
	CONSTRAINT "user_blocks_not_self_check" CHECK ("user_blocks"."blocker_id" <> "user_blocks"."blocked_id")
);
--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspension_reason" text;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_subject_id_users_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_blocks" ADD CONSTRAINT "user_blocks_blocker_id_users_id_fk" FOREIGN KEY ("blocker_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_blocks" ADD CONSTRAINT "user_blocks_blocked_id_users_id_fk" FOREIGN KEY ("blocked_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reports_open_idx" ON "reports" USING btree ("created_at") WHERE "reports"."closed_at" is null;--> statement-breakpoint
CREATE INDEX "user_blocks_blocked_id_index" ON "user_blocks" USING btree ("blocked_id");--> statement-breakpoint
-- A hidden review leaves its person's rating and an un-hidden one comes back: the trigger of
-- 0010 (docs/decisions/037-ratings-on-the-user-row.md) now counts a review while it is revealed
-- and not hidden, and fires on hidden_at too, so hiding needs no code beside it (decision 059).
CREATE OR REPLACE FUNCTION reviews_keep_user_ratings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.revealed_at IS NOT DISTINCT FROM NEW.revealed_at
      AND OLD.hidden_at IS NOT DISTINCT FROM NEW.hidden_at
      AND OLD.rating = NEW.rating AND OLD.reviewed_id = NEW.reviewed_id THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    IF OLD.revealed_at IS NOT NULL AND OLD.hidden_at IS NULL THEN
      UPDATE users SET rating_count = rating_count - 1, rating_sum = rating_sum - OLD.rating WHERE id = OLD.reviewed_id;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    IF NEW.revealed_at IS NOT NULL AND NEW.hidden_at IS NULL THEN
      UPDATE users SET rating_count = rating_count + 1, rating_sum = rating_sum + NEW.rating WHERE id = NEW.reviewed_id;
    END IF;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS reviews_keep_user_ratings ON reviews;--> statement-breakpoint
CREATE TRIGGER reviews_keep_user_ratings AFTER INSERT OR DELETE OR UPDATE OF revealed_at, hidden_at, rating, reviewed_id ON reviews
  FOR EACH ROW EXECUTE FUNCTION reviews_keep_user_ratings();
