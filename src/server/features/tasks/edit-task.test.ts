import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { MIN_BUDGET_CENTS } from "../../../shared/constants.js";
import { centsToDollars, priceTask } from "../../../shared/money.js";
import type { TaskDetail, TaskPrivate, TaskPublic } from "../../../shared/tasks.js";
import { HIDDEN } from "../../contact-masking.js";
import { notifications } from "../../db/schema/chat.js";
import { parseTaskUpdate, TASK_UPDATES_CHANNEL, type TaskUpdate } from "../../task-updates.js";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { BASE_BODY, createProvider, taskAt, taskRow, transition } from "../../../../test/fixtures/factory.js";
import { CLAIMED_TASK_NOT_EDITABLE } from "./edit-task.js";

// The poster edits an open task: details, budget (priced again by the one fee function), date and
// place; the change reaches open boards and the task page; once claimed, nothing changes
// (docs/decisions/058-withdrawing-and-editing.md).

const t = await useTestApp();
const admin = await createUser(t, { role: "admin" });

const heard: TaskUpdate[] = [];
await t.app.ctx.database.listen(TASK_UPDATES_CHANNEL, (payload) => {
  const update = parseTaskUpdate(payload);
  if (update) heard.push(update);
});

const EDIT = {
  title: "Pick up two parcels",
  description: "From the post office on Main St, both under my name",
  budget: 80,
  scheduledDate: null,
  location: "12 Main St",
  city: "Annapolis",
  state: "MD",
};

const edit = (user: TestUser | null, id: string, payload: object = EDIT) => call(t, user, { method: "PATCH", url: `/api/tasks/${id}`, payload });
const board = async () => (await call(t, null, { url: "/api/tasks/open?pageSize=100" })).json<TaskPublic[]>();

describe("editing an open task", () => {
  it("changes its details and prices the new budget with the one fee function", async () => {
    const { task, poster } = await taskAt(t, "open", { budgetCents: 5000, body: { location: "12 Main St", city: "Annapolis", state: "MD" } });
    const before = await board();
    expect(before.find((c) => c.id === task.id)?.budget).toBe(50);

    const res = await edit(poster, task.id);
    expect(res.statusCode, res.body).toBe(200);
    const price = priceTask(8000, "standard");
    expect(res.json<TaskPrivate>()).toMatchObject({
      title: EDIT.title,
      description: EDIT.description,
      budget: 80,
      serviceFee: centsToDollars(price.serviceFeeCents),
      totalAmount: centsToDollars(price.totalCents),
      status: "open",
      editedAt: t.clock.now().toISOString(),
    });
    expect(await taskRow(t, task.id)).toMatchObject({ budgetCents: 8000, totalCents: price.totalCents, serviceFeeCents: price.serviceFeeCents });

    // The kept board answer is dropped: visitors see the new card at once, and the page says "edited".
    expect((await board()).find((c) => c.id === task.id)).toMatchObject({ title: EDIT.title, budget: 80 });
    const detail = (await call(t, null, { url: `/api/tasks/${task.id}` })).json<TaskDetail>();
    expect(detail.editedAt).toBe(t.clock.now().toISOString());
    await vi.waitFor(() => expect(heard.some((u) => u.taskId === task.id && u.event === "edited" && u.board === "added")).toBe(true));
  });

  it("moves the task when the place changes, from the picked suggestion's position", async () => {
    const { task, poster } = await taskAt(t, "open", { body: { location: "12 Main St", city: "Annapolis", state: "MD", lat: 38.98, lon: -76.49 } });
    const res = await edit(poster, task.id, { ...EDIT, location: "1 Market Sq", city: "Baltimore", state: "MD", lat: 39.2904, lon: -76.6122 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TaskPrivate>()).toMatchObject({ location: "1 Market Sq", city: "Baltimore", approxLat: 39.29, approxLon: -76.61 });
  });

  it("masks contact details in the new title and description, as at posting", async () => {
    const { task, poster } = await taskAt(t, "open");
    const res = await edit(poster, task.id, { ...EDIT, title: "Two parcels, four one zero five five five one two three four", description: "Or write to sam at gmail, evil dot com" });
    expect(res.statusCode, res.body).toBe(200);
    const seen = (await call(t, null, { url: `/api/tasks/${task.id}` })).json<TaskDetail>();
    expect(seen.title).toBe(`Two parcels, ${HIDDEN.phone}`);
    expect(seen.description).toBe(`Or write to ${HIDDEN.email}, ${HIDDEN.link}`);
    expect(await taskRow(t, task.id)).toMatchObject({ title: seen.title, description: seen.description });
  });

  it("refuses a budget under the minimum and a past date with the field's error, changing nothing", async () => {
    const { task, poster } = await taskAt(t, "open");
    const low = await edit(poster, task.id, { ...EDIT, budget: centsToDollars(MIN_BUDGET_CENTS - 100) });
    expect(low.statusCode).toBe(400);
    expect(low.json<{ fieldErrors: Record<string, string> }>().fieldErrors.budget).toMatch(/^Minimum budget is/);
    const past = await edit(poster, task.id, { ...EDIT, scheduledDate: new Date(t.clock.now().getTime() - 2 * 86_400_000).toISOString() });
    expect(past.statusCode).toBe(400);
    expect(past.json<{ fieldErrors: Record<string, string> }>().fieldErrors.scheduledDate).toBeTruthy();
    const noPlace = await edit(poster, task.id, { ...EDIT, location: "" });
    expect(noPlace.statusCode).toBe(400);
    expect(noPlace.json<{ fieldErrors: Record<string, string> }>().fieldErrors.location).toBe("Location is required. Enter the address where the task happens.");
    expect(await taskRow(t, task.id)).toMatchObject({ title: task.title, budgetCents: task.budgetCents, editedAt: null });
  });

  it("does not send job alerts a second time", async () => {
    const alerted = await createProvider(t);
    const alert = { categories: [BASE_BODY.category], near: "21401", radiusMiles: 10, minBudget: null };
    expect((await call(t, alerted, { method: "PUT", url: "/api/alerts", payload: { alerts: [alert] } })).statusCode).toBe(200);
    const { task, poster } = await taskAt(t, "open", { body: { location: "12 Main St", city: "Annapolis", state: "MD", lat: 38.98, lon: -76.49 } });
    const alertsOf = () => t.database.db.select().from(notifications).where(and(eq(notifications.userId, alerted.id), eq(notifications.taskId, task.id)));
    expect(await alertsOf()).toHaveLength(1);
    expect((await edit(poster, task.id, { ...EDIT, lat: 38.98, lon: -76.49 })).statusCode).toBe(200);
    expect(await alertsOf()).toHaveLength(1);
  });
});

describe("who may edit, and when", () => {
  it("is the poster's alone", async () => {
    const { task } = await taskAt(t, "open");
    const stranger = await createProvider(t);
    for (const user of [stranger, admin]) {
      const res = await edit(user, task.id);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: "Only the task owner can edit this task" });
    }
    expect((await edit(null, task.id)).statusCode).toBe(401);
    expect((await edit(admin, "00000000-0000-4000-8000-000000000000")).statusCode).toBe(404);
  });

  it("refuses once a provider has claimed, so the price they claimed at holds", async () => {
    for (const stage of ["claimed", "paid"] as const) {
      const { task, poster } = await taskAt(t, stage);
      const res = await edit(poster, task.id);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: CLAIMED_TASK_NOT_EDITABLE });
      expect((await taskRow(t, task.id)).budgetCents).toBe(task.budgetCents);
    }
    const { task, poster } = await taskAt(t, "cancelled");
    expect((await edit(poster, task.id)).json()).toEqual({ message: "Only an open task can be edited." });
  });

  it("against a claim at the same moment: the claimed task's total always matches its budget", async () => {
    for (let i = 0; i < 3; i += 1) {
      const { task, poster } = await taskAt(t, "open");
      const provider = await createProvider(t);
      const [e, claimed] = await Promise.all([edit(poster, task.id), transition(t, "claim", task.id, provider)]);
      expect(claimed).not.toBeNull();
      const row = await taskRow(t, task.id);
      expect(row.totalCents).toBe(priceTask(row.budgetCents, row.urgency).totalCents);
      // The edit either ran first (and the claim took the new price) or was refused.
      if (e.statusCode === 200) expect(row.budgetCents).toBe(8000);
      else {
        expect(e.statusCode).toBe(409);
        expect(row.budgetCents).toBe(task.budgetCents);
      }
    }
  });
});
