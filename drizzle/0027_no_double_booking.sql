-- No provider is ever booked twice for the same time (docs/decisions/074-time-and-turning-up.md):
-- the database refuses a second range of one provider that overlaps the first, whichever instance
-- writes it and however the writes race. Written by hand, beside the generated 0026: drizzle does
-- not generate extensions or exclusion constraints. btree_gist lets the GiST index compare the
-- provider's uuid with "=" beside the range's "&&" (PostgreSQL's contrib, shipped by the embedded
-- server and by Debian's postgresql-15).
CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
ALTER TABLE "provider_bookings" ADD CONSTRAINT "provider_bookings_bounded"
  CHECK (NOT isempty("during") AND NOT lower_inf("during") AND NOT upper_inf("during"));--> statement-breakpoint
ALTER TABLE "provider_bookings" ADD CONSTRAINT "provider_bookings_no_overlap"
  EXCLUDE USING gist ("provider_id" WITH =, "during" WITH &&);--> statement-breakpoint
-- Tasks claimed before calendars existed take their time too, for the 60 minutes 0026 gave them; of
-- two that overlap, the earlier claim keeps its place and the later one stays off the calendar.
INSERT INTO "provider_bookings" ("task_id", "provider_id", "during")
SELECT "id", "provider_id", tstzrange("scheduled_date", "scheduled_date" + make_interval(mins => "duration_minutes"), '[)')
FROM "tasks"
WHERE "status" IN ('claimed', 'in_progress') AND "provider_id" IS NOT NULL AND "scheduled_date" IS NOT NULL
ORDER BY "claimed_at" NULLS LAST, "id"
ON CONFLICT DO NOTHING;
