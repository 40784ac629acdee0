-- The job board's first page (GET /api/tasks/open), written by `npm run bench:load -- --write-query`
-- from openTasksSql() with its parameters inlined.
select "tasks"."id", "tasks"."title", "tasks"."description", "tasks"."category", "tasks"."urgency", "tasks"."budget_cents", "tasks"."urgent_fee_cents", "tasks"."service_fee_cents", "tasks"."total_cents", "tasks"."scheduled_date", "tasks"."city", "tasks"."state", "tasks"."start_city", "tasks"."start_state", "tasks"."end_city", "tasks"."end_state", coalesce(jsonb_array_length("tasks"."stops"), 0), ("tasks"."start_location" is not null), "tasks"."approx_lat", "tasks"."approx_lon", "tasks"."status", "tasks"."created_at", "tasks"."user_id", "tasks"."provider_id", "tasks"."payment_deadline", "tasks"."payment_captured_at", null::float8, "users"."first_name", "users"."last_name", coalesce((select pp.profile_photo_path from provider_profiles pp
    where pp.user_id = "users"."id" and pp.verification_status = 'approved'), "users"."profile_image_url"), (case when "users"."rating_count" > 0 then round("users"."rating_sum"::numeric / "users"."rating_count", 1) end), "users"."rating_count", photo.id, photo.alt, pg_current_snapshot()::text from "tasks"
    join "users" on "users"."id" = "tasks"."user_id"
    left join lateral (select tp.id, tp.alt from task_photos tp where tp.task_id = "tasks"."id" order by tp.seq limit 1) photo on true
    where "tasks"."status" = 'open'
    order by "tasks"."created_at" desc, "tasks"."id" desc
    limit 30 offset 0;
