ALTER TYPE "public"."upload_kind" ADD VALUE 'dispute_photo';--> statement-breakpoint
CREATE TABLE "dispute_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message_id" uuid NOT NULL,
	"upload_id" uuid NOT NULL,
	"small_key" text NOT NULL,
	"medium_key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"seq" bigserial NOT NULL,
	CONSTRAINT "dispute_photos_uploadId_unique" UNIQUE("upload_id")
);
--> statement-breakpoint
ALTER TABLE "dispute_photos" ADD CONSTRAINT "dispute_photos_message_id_dispute_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."dispute_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute_photos" ADD CONSTRAINT "dispute_photos_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dispute_photos_message_id_seq_index" ON "dispute_photos" USING btree ("message_id","seq");