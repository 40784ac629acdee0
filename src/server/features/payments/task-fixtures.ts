import { and, eq, gt, inArray, isNotNull, isNull, lte, sql } from "drizzle-orm";
import type { TaskTransitionName } from "../../../shared/task-lifecycle.js";
import type { Urgency } from "../../../shared/constants.js";
import { priceTask } from "../../../shared/money.js";
import { tasks } from "../../db/schema/tasks.js";
import type { TaskRow } from "../../task-events.js";
import type { TestApp } from "../../../../test/create-test-app.js";

// Test fixtures: tasks inserted as rows and moved by the same conditional updates the lifecycle
// table describes (docs/decisions/005), with the event emitted in the same transaction, so the
// payments handlers run exactly as they do behind the tasks routes.

export async function insertTask(t: TestApp, posterId: string, budgetCents: number, urgency: Urgency = "standard"): Promise<TaskRow> {
  const price = priceTask(budgetCents, urgency);
  const [task] = await t.database.db
    .insert(tasks)
    .values({
      userId: posterId,
      title: `Task of ${budgetCents} cents`,
      description: "Pick up a parcel",
      category: "errands",
      urgency,
      budgetCents,
      urgentFeeCents: price.urgentFeeCents,
      serviceFeeCents: price.serviceFeeCents,
      totalCents: price.totalCents,
      location: "1 Main St",
      city: "Annapolis",
      state: "MD",
      createdAt: t.clock.now(),
    })
    .returning();
  if (!task) throw new Error("task not inserted");
  return task;
}

const PAYMENT_WINDOW_MS = 30 * 60_000;

/** Runs one lifecycle transition; null when its conditions did not hold. */
export async function transition(t: TestApp, name: TaskTransitionName, taskId: string, actorId: string | null): Promise<TaskRow | null> {
  const now = t.clock.now();
  const { ctx } = t.app;
  return ctx.db.transaction(async (tx) => {
    const id = eq(tasks.id, taskId);
    let rows: TaskRow[];
    switch (name) {
      case "claim":
        rows = await tx
          .update(tasks)
          .set({ status: "claimed", providerId: actorId, claimedAt: now, paymentDeadline: new Date(now.getTime() + PAYMENT_WINDOW_MS) })
          .where(and(id, eq(tasks.status, "open")))
          .returning();
        break;
      case "start":
        rows = await tx
          .update(tasks)
          .set({ status: "in_progress", startedAt: now })
          .where(and(id, eq(tasks.status, "claimed"), isNotNull(tasks.paymentCapturedAt), actorId ? eq(tasks.providerId, actorId) : sql`false`))
          .returning();
        break;
      case "complete":
        rows = await tx
          .update(tasks)
          .set({ status: "completed", completedAt: now })
          .where(and(id, eq(tasks.status, "in_progress")))
          .returning();
        break;
      case "cancel":
        rows = await tx
          .update(tasks)
          .set({ status: "cancelled", cancelledAt: now })
          .where(and(id, inArray(tasks.status, ["open", "claimed"])))
          .returning();
        break;
      case "expire":
        rows = await tx
          .update(tasks)
          .set({ status: "payment_expired", providerId: null, paymentDeadline: null })
          .where(and(id, eq(tasks.status, "claimed"), isNull(tasks.paymentCapturedAt), lte(tasks.paymentDeadline, now)))
          .returning();
        break;
      case "reactivate":
        rows = await tx.update(tasks).set({ status: "open" }).where(and(id, eq(tasks.status, "payment_expired"))).returning();
        break;
      case "pay":
        rows = await tx
          .update(tasks)
          .set({ paymentCapturedAt: now })
          .where(and(id, eq(tasks.status, "claimed"), isNull(tasks.paymentCapturedAt), gt(tasks.paymentDeadline, now)))
          .returning();
        break;
    }
    const [task] = rows;
    if (!task) return null;
    await ctx.taskEvents.emit({ transition: name, task, actorId, tx, now });
    return task;
  });
}
