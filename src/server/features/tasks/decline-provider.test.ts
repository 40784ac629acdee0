import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { NotificationList } from "../../../shared/notifications.js";
import type { TaskEscrow } from "../../../shared/payments.js";
import { DECLINE_CHOSEN_MESSAGE, DECLINED_PROVIDER_MESSAGE } from "../../../shared/task-lifecycle.js";
import type { DeclinedTasks, TaskDetail, TaskPublic } from "../../../shared/tasks.js";
import { notifications } from "../../db/schema/chat.js";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { BASE_OFFER, createPoster, createProvider, makeOffer, postOffersTask, taskAt, taskRow, transition } from "../../../../test/fixtures/factory.js";

// The poster sees who claimed and may decline them during the payment window; a cancelled task
// tells its provider, shows the refund and closes the chat (docs/decisions/024-declining-a-provider.md).

const t = await useTestApp({ PAYMENT_WINDOW_MINUTES: "30" });
const admin = await createUser(t, { role: "admin" });

const decline = (user: TestUser | null, id: string) => call(t, user, { method: "PATCH", url: `/api/tasks/${id}/decline-provider` });
const detail = async (user: TestUser | null, id: string) => (await call(t, user, { url: `/api/tasks/${id}` })).json<TaskDetail>();

async function noticesOf(user: TestUser, kind: string) {
  const res = await call(t, user, { url: "/api/notifications" });
  expect(res.statusCode).toBe(200);
  return res.json<NotificationList>().notifications.filter((n) => n.kind === kind);
}

describe("the poster sees who claimed", () => {
  it("gives everyone the provider's card, with the full name only for the task's insiders", async () => {
    const provider = await createProvider(t, { firstName: "Maria", lastName: "Gonzalez" });
    const { task, poster } = await taskAt(t, "claimed", { provider });
    const stranger = await createUser(t);
    const card = { id: provider.id, displayName: "Maria G.", profilePhotoUrl: null, rating: null, reviewCount: 0, completedTasks: 0 };
    // The poster decides on this card whether to pay or to decline; the insiders also see the full name.
    for (const viewer of [poster, admin, provider]) {
      expect((await detail(viewer, task.id)).provider, `viewer ${viewer.id}`).toEqual({ ...card, firstName: "Maria", lastName: "Gonzalez" });
    }
    // Strangers see who does the task as anyone sees a person: the display name, never the last name.
    for (const viewer of [stranger, null]) {
      const seen = (await detail(viewer, task.id)).provider;
      expect(seen, `viewer ${viewer?.id ?? "visitor"}`).toEqual(card);
      expect(JSON.stringify(seen)).not.toContain("Gonzalez");
    }
  });

  it("counts the provider's completed tasks", async () => {
    const provider = await createProvider(t);
    await taskAt(t, "completed", { provider });
    const { task, poster } = await taskAt(t, "claimed", { provider });
    expect((await detail(poster, task.id)).provider?.completedTasks).toBe(1);
  });

  it("names the provider, their rating and completed tasks in the claim notice", async () => {
    const provider = await createProvider(t, { firstName: "Sam", lastName: "Porter" });
    const { poster } = await taskAt(t, "claimed", { provider });
    const [notice] = await noticesOf(poster, "task_claimed");
    expect(notice?.body).toContain("Sam P. (no ratings yet, 0 completed tasks)");
  });
});

describe("declining the provider", () => {
  it("refuses a provider the poster chose by accepting their offer (issue 41)", async () => {
    const poster = await createPoster(t);
    const provider = await createProvider(t);
    const task = await postOffersTask(t, poster);
    const offerId = await makeOffer(t, provider, task.id);
    const accepted = await call(t, poster, { method: "POST", url: `/api/tasks/${task.id}/offers/${offerId}/accept`, payload: { price: BASE_OFFER.price } });
    expect(accepted.statusCode).toBe(200);
    const res = await decline(poster, task.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: DECLINE_CHOSEN_MESSAGE });
    expect(await taskRow(t, task.id)).toMatchObject({ status: "claimed", providerId: provider.id });
  });

  it("opens the task again, tells the provider and keeps them from claiming it again", async () => {
    const { task, poster, provider } = await taskAt(t, "claimed");
    const res = await decline(poster, task.id);
    expect(res.statusCode).toBe(200);
    expect(res.json<TaskPublic>()).toMatchObject({ status: "open", providerId: null, paymentDeadline: null, provider: null });
    expect(await taskRow(t, task.id)).toMatchObject({ status: "open", providerId: null, paymentDeadline: null });

    const board = (await call(t, null, { url: "/api/tasks/open?pageSize=100" })).json<TaskPublic[]>();
    expect(board.some((x) => x.id === task.id)).toBe(true);

    // Nobody else was chosen: the notice and the refusal say what happened.
    const [notice] = await noticesOf(provider, "task_declined");
    expect(notice).toMatchObject({ taskId: task.id, title: "The poster declined your claim" });
    expect(notice?.body).toBe(`The poster of "${task.title}" declined your claim on it. The task is no longer in your jobs; you can claim other tasks on the job board.`);

    const again = await call(t, provider, { method: "PATCH", url: `/api/tasks/${task.id}/claim` });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: "The poster declined your claim on this task. You can claim other tasks on the job board." });
    expect(DECLINED_PROVIDER_MESSAGE).toBe(again.json<{ message: string }>().message);
    expect(await taskRow(t, task.id)).toMatchObject({ status: "open", providerId: null });

    // Another provider may claim it, and the poster may decline them too.
    const other = await createProvider(t);
    expect(await transition(t, "claim", task.id, other)).toMatchObject({ status: "claimed", providerId: other.id });
    expect((await decline(poster, task.id)).statusCode).toBe(200);
  });

  it("lists the open tasks each provider was declined on, for their board to leave out", async () => {
    const declinedOn = async (user: TestUser) => {
      const res = await call(t, user, { url: "/api/tasks/declined" });
      expect(res.statusCode).toBe(200);
      return res.json<DeclinedTasks>().taskIds;
    };
    const { task, poster, provider } = await taskAt(t, "claimed");
    const bystander = await createProvider(t);
    expect(await declinedOn(provider)).not.toContain(task.id);
    expect((await decline(poster, task.id)).statusCode).toBe(200);
    expect(await declinedOn(provider)).toContain(task.id);
    expect(await declinedOn(bystander)).not.toContain(task.id);
    expect((await call(t, null, { url: "/api/tasks/declined" })).statusCode).toBe(401);
    // Once the task is no longer open it is on nobody's board, so it leaves the list.
    expect(await transition(t, "cancel", task.id, poster)).toMatchObject({ status: "cancelled" });
    expect(await declinedOn(provider)).not.toContain(task.id);
  });

  it("belongs to the poster alone", async () => {
    const { task, provider } = await taskAt(t, "claimed");
    const stranger = await createUser(t);
    expect((await decline(null, task.id)).statusCode).toBe(401);
    for (const who of [provider, stranger, admin]) {
      const res = await decline(who, task.id);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: "Only the task owner can decline this task" });
    }
    expect(await taskRow(t, task.id)).toMatchObject({ status: "claimed", providerId: provider.id });
  });

  it("is refused outside the payment window", async () => {
    const open = await taskAt(t, "open");
    expect((await decline(open.poster, open.task.id)).json()).toEqual({ message: "Only a claimed task's provider can be declined" });
    const paid = await taskAt(t, "paid");
    const res = await decline(paid.poster, paid.task.id);
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toMatch(/paid task's provider can no longer be declined/);
    expect(await taskRow(t, paid.task.id)).toMatchObject({ status: "claimed", providerId: paid.provider.id });
    for (const stage of ["in_progress", "completed", "cancelled", "payment_expired"] as const) {
      const f = await taskAt(t, stage);
      expect((await decline(f.poster, f.task.id)).statusCode, stage).toBe(409);
    }
    const notices = await t.database.db.select().from(notifications).where(and(eq(notifications.taskId, paid.task.id), eq(notifications.kind, "task_declined")));
    expect(notices).toHaveLength(0);
  });

  it("a decline does not keep a provider off the poster's other tasks", async () => {
    const poster = await createPoster(t);
    const provider = await createProvider(t);
    const first = await taskAt(t, "claimed", { poster, provider });
    expect((await decline(poster, first.task.id)).statusCode).toBe(200);
    const second = await taskAt(t, "open", { poster });
    expect(await transition(t, "claim", second.task.id, provider)).toMatchObject({ status: "claimed" });
  });
});

describe("cancelling a paid task", () => {
  it("refunds, tells the provider, shows the refund and closes the chat", async () => {
    const { task, poster, provider } = await taskAt(t, "paid");
    expect((await call(t, poster, { method: "POST", url: "/api/messages", payload: { taskId: task.id, content: "See you soon" } })).statusCode).toBe(201);
    t.clock.advance(60_000);
    expect(await transition(t, "cancel", task.id, poster)).toMatchObject({ status: "cancelled" });

    const escrow = (await call(t, poster, { url: `/api/tasks/${task.id}/escrow` })).json<TaskEscrow>();
    expect(escrow.statement.lines.at(-1)).toMatchObject({ kind: "refund", amount: task.totalCents / 100, at: t.clock.now().toISOString(), reason: "cancel" });

    const [notice] = await noticesOf(provider, "task_cancelled");
    expect(notice).toMatchObject({ taskId: task.id, title: "A task you claimed was cancelled" });
    expect(notice?.body).toContain("refunded");

    for (const sender of [poster, provider]) {
      const res = await call(t, sender, { method: "POST", url: "/api/messages", payload: { taskId: task.id, content: "Hello?" } });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: "This task was cancelled; the chat is closed." });
    }
    // The conversation stays readable.
    expect((await call(t, provider, { url: `/api/messages/${task.id}` })).json<unknown[]>()).toHaveLength(1);
  });

  it("an unpaid claimed task's provider is told too; an open task has nobody to tell and no refund", async () => {
    const claimed = await taskAt(t, "cancelled");
    expect(await noticesOf(claimed.provider, "task_cancelled")).toHaveLength(1);
    expect((await call(t, claimed.poster, { url: `/api/tasks/${claimed.task.id}/escrow` })).json<TaskEscrow>().statement.lines).toEqual([]);
    const open = await taskAt(t, "open");
    expect(await transition(t, "cancel", open.task.id, open.poster)).toMatchObject({ status: "cancelled" });
    const kinds = await t.database.db.select().from(notifications).where(eq(notifications.taskId, open.task.id));
    expect(kinds.filter((n) => n.kind === "task_cancelled")).toHaveLength(0);
  });
});
