CREATE TABLE "receipt_facts" (
	"transaction_id" uuid PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"scheduled_date" timestamp with time zone,
	"budget_cents" integer NOT NULL,
	"urgent_fee_cents" integer NOT NULL,
	"service_fee_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	"provider_id" uuid
);
--> statement-breakpoint
ALTER TABLE "receipt_facts" ADD CONSTRAINT "receipt_facts_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt_facts" ADD CONSTRAINT "receipt_facts_provider_id_users_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- A receipt's facts are written once, when its money moves: the database refuses UPDATE and DELETE
-- (docs/decisions/060-receipts-from-the-ledger.md, "Facts frozen at issue").
CREATE OR REPLACE FUNCTION receipt_facts_written_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'receipt facts are written once, when the money moves';
END;
$$;--> statement-breakpoint
CREATE TRIGGER receipt_facts_written_once BEFORE UPDATE OR DELETE ON receipt_facts
  FOR EACH ROW EXECUTE FUNCTION receipt_facts_written_once();
