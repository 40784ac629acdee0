CREATE TABLE "task_declined_providers" (
	"task_id" uuid NOT NULL,
	"provider_id" uuid NOT NULL,
	"declined_at" timestamp with time zone NOT NULL,
	CONSTRAINT "task_declined_providers_task_id_provider_id_pk" PRIMARY KEY("task_id","provider_id")
);
--> statement-breakpoint
ALTER TABLE "task_declined_providers" ADD CONSTRAINT "task_declined_providers_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_declined_providers" ADD CONSTRAINT "task_declined_providers_provider_id_users_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;