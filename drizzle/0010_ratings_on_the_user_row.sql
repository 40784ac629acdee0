ALTER TABLE "reviews" ADD COLUMN "revealed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "rating_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "rating_sum" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "reviews_blind_task_idx" ON "reviews" USING btree ("task_id") WHERE "reviews"."revealed_at" is null;--> statement-breakpoint
-- Reviews revealed under the rule as it stood (docs/decisions/010-chat-fanout-and-notifications.md):
-- the other party reviewed too, or 14 days (BLIND_REVIEW_DAYS) passed since completion. Each gets the
-- moment it became visible, whichever came first: the second review of the pair, or the end of the
-- blind window (docs/decisions/037-ratings-on-the-user-row.md). The ALTER TABLEs above hold both
-- tables until this migration commits, so no review arrives between this and the trigger below.
UPDATE reviews r SET revealed_at = least(
    (SELECT greatest(r.created_at, o.created_at) FROM reviews o WHERE o.task_id = r.task_id AND o.reviewer_id = r.reviewed_id),
    t.completed_at + interval '14 days')
  FROM tasks t
  WHERE t.id = r.task_id
    AND (EXISTS (SELECT 1 FROM reviews o WHERE o.task_id = r.task_id AND o.reviewer_id = r.reviewed_id)
      OR t.completed_at <= now() - interval '14 days');--> statement-breakpoint
UPDATE users u SET rating_count = s.count, rating_sum = s.sum
  FROM (SELECT reviewed_id, count(*)::int AS count, sum(rating)::int AS sum FROM reviews WHERE revealed_at IS NOT NULL GROUP BY reviewed_id) s
  WHERE u.id = s.reviewed_id;--> statement-breakpoint
-- From now on the database keeps users.rating_count and rating_sum equal to the count and sum of the
-- person's revealed reviews, whatever writes reviews: a reveal adds, deleting a revealed review (its
-- task deleted, which cascades) subtracts. No code path can forget it (decision 037).
CREATE OR REPLACE FUNCTION reviews_keep_user_ratings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.revealed_at IS NOT DISTINCT FROM NEW.revealed_at
      AND OLD.rating = NEW.rating AND OLD.reviewed_id = NEW.reviewed_id THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    IF OLD.revealed_at IS NOT NULL THEN
      UPDATE users SET rating_count = rating_count - 1, rating_sum = rating_sum - OLD.rating WHERE id = OLD.reviewed_id;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    IF NEW.revealed_at IS NOT NULL THEN
      UPDATE users SET rating_count = rating_count + 1, rating_sum = rating_sum + NEW.rating WHERE id = NEW.reviewed_id;
    END IF;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS reviews_keep_user_ratings ON reviews;--> statement-breakpoint
CREATE TRIGGER reviews_keep_user_ratings AFTER INSERT OR DELETE OR UPDATE OF revealed_at, rating, reviewed_id ON reviews
  FOR EACH ROW EXECUTE FUNCTION reviews_keep_user_ratings();
