-- A task's line items are fixed when it is priced (docs/decisions/073-one-account-of-each-tasks-money.md):
-- the provider's share and the platform's commission join the budget, surcharge, service fee and total.
-- Existing tasks get them from the rule they were priced by: 85% of budget + surcharge, rounded down.
ALTER TABLE "tasks" ADD COLUMN "provider_share_cents" integer;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "platform_commission_cents" integer;--> statement-breakpoint
UPDATE "tasks" SET
  "provider_share_cents" = (("budget_cents" + "urgent_fee_cents") * 85) / 100,
  "platform_commission_cents" = ("budget_cents" + "urgent_fee_cents") - (("budget_cents" + "urgent_fee_cents") * 85) / 100;--> statement-breakpoint
ALTER TABLE "tasks" ALTER COLUMN "provider_share_cents" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ALTER COLUMN "platform_commission_cents" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_line_items_add_up" CHECK ("tasks"."provider_share_cents" + "tasks"."platform_commission_cents" = "tasks"."budget_cents" + "tasks"."urgent_fee_cents");
