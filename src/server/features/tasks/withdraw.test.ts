import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { formatDollarsExact } from "../../../shared/money.js";
import type { NotificationList } from "../../../shared/notifications.js";
import { reliabilityLine, type UserProfile } from "../../../shared/profiles.js";
import type { TaskPublic } from "../../../shared/tasks.js";
import { notifications } from "../../db/schema/chat.js";
import { ledgerTransactions, payments } from "../../db/schema/payments.js";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { BASE_BODY, createProvider, pay, payWithCard, startPayment, taskAt, taskRow, transition } from "../../../../test/fixtures/factory.js";
import { ACCOUNTS, accountBalance } from "../payments/ledger.js";

// A provider gives a claim back before starting: "withdraw" refunds a paid poster in full,
// "release_claim" gives back an unpaid one; either way the task is open again, the poster is told,
// and the provider's profile counts it (docs/decisions/058-withdrawing-and-editing.md).

const t = await useTestApp();
const admin = await createUser(t, { role: "admin" });

const withdraw = (user: TestUser | null, id: string) => call(t, user, { method: "PATCH", url: `/api/tasks/${id}/withdraw` });
const release = (user: TestUser | null, id: string) => call(t, user, { method: "PATCH", url: `/api/tasks/${id}/release-claim` });
const escrow = (taskId: string) => accountBalance(t.app.ctx, ACCOUNTS.escrow(taskId));
const refunds = (taskId: string) =>
  t.database.db.select().from(ledgerTransactions).where(and(eq(ledgerTransactions.taskId, taskId), eq(ledgerTransactions.kind, "refund")));

async function noticesOf(user: TestUser, kind: string) {
  const res = await call(t, user, { url: "/api/notifications" });
  expect(res.statusCode).toBe(200);
  return res.json<NotificationList>().notifications.filter((n) => n.kind === kind);
}

const profileOf = async (id: string) => (await call(t, null, { url: `/api/users/${id}/profile` })).json<UserProfile>();

describe("withdrawing from a paid claim", () => {
  it("reopens the task, refunds the poster in full and tells them with the amount", async () => {
    const { task, poster, provider } = await taskAt(t, "paid", { budgetCents: 4000 });
    expect(await escrow(task.id)).toBe(task.totalCents);

    const res = await withdraw(provider, task.id);
    expect(res.statusCode).toBe(200);
    expect(res.json<TaskPublic>()).toMatchObject({ status: "open", providerId: null, paymentCapturedAt: null, paymentDeadline: null });

    expect(await escrow(task.id)).toBe(0);
    expect(await refunds(task.id)).toHaveLength(1);
    expect((await t.database.db.select().from(payments).where(eq(payments.taskId, task.id))).map((p) => p.status)).toEqual(["refunded"]);

    const [notice] = await noticesOf(poster, "provider_withdrew");
    expect(notice).toMatchObject({ taskId: task.id, title: "Your provider withdrew" });
    expect(notice?.body).toContain(`${formatDollarsExact(task.totalCents)} was refunded to your card because the provider withdrew.`);
    const board = (await call(t, null, { url: "/api/tasks/open?pageSize=100" })).json<TaskPublic[]>();
    expect(board.some((x) => x.id === task.id)).toBe(true);
  });

  it("lets another provider claim the reopened task, and the poster pay again", async () => {
    const { task, poster, provider } = await taskAt(t, "paid");
    expect((await withdraw(provider, task.id)).statusCode).toBe(200);
    const next = await createProvider(t);
    expect(await transition(t, "claim", task.id, next)).toMatchObject({ status: "claimed", providerId: next.id, paymentCapturedAt: null });
    const paid = await pay(t, poster, task);
    expect(paid.paymentCapturedAt).not.toBeNull();
    expect(await escrow(task.id)).toBe(task.totalCents);
  });

  it("does not send job alerts a second time", async () => {
    const alerted = await createProvider(t);
    const alert = { categories: [BASE_BODY.category], near: "21401", radiusMiles: 10, minBudget: null };
    expect((await call(t, alerted, { method: "PUT", url: "/api/alerts", payload: { alerts: [alert] } })).statusCode).toBe(200);
    const { task, provider } = await taskAt(t, "paid", { body: { lat: 38.98, lon: -76.49 } });
    const alertsOf = () => t.database.db.select().from(notifications).where(and(eq(notifications.userId, alerted.id), eq(notifications.taskId, task.id)));
    expect(await alertsOf()).toHaveLength(1);
    expect((await withdraw(provider, task.id)).statusCode).toBe(200);
    expect(await alertsOf()).toHaveLength(1);
  });
});

describe("releasing an unpaid claim", () => {
  it("reopens the task with no money moved and tells the poster", async () => {
    const { task, poster, provider } = await taskAt(t, "claimed");
    const res = await release(provider, task.id);
    expect(res.statusCode).toBe(200);
    expect(res.json<TaskPublic>()).toMatchObject({ status: "open", providerId: null, paymentDeadline: null });
    expect(await refunds(task.id)).toHaveLength(0);
    const [notice] = await noticesOf(poster, "provider_withdrew");
    expect(notice?.body).toBe(`The provider who claimed "${task.title}" withdrew before starting. The task is open on the job board again for other providers to claim.`);
  });
});

describe("who may give a claim back, and when", () => {
  it("refuses strangers, the poster and admins with 403, and signed-out callers with 401", async () => {
    const { task, poster } = await taskAt(t, "paid");
    const stranger = await createProvider(t);
    for (const user of [stranger, poster, admin]) {
      const res = await withdraw(user, task.id);
      expect(res.statusCode, user.id).toBe(403);
      expect(res.json()).toEqual({ message: "Only the assigned provider can withdraw this task" });
    }
    expect((await withdraw(null, task.id)).statusCode).toBe(401);
    expect(await taskRow(t, task.id)).toMatchObject({ status: "claimed" });
  });

  it("sends each kind of claim to its own way out", async () => {
    const paid = await taskAt(t, "paid");
    const r1 = await release(paid.provider, paid.task.id);
    expect(r1.statusCode).toBe(409);
    expect(r1.json()).toEqual({ message: "The poster has paid; withdraw from the task instead, and they are refunded in full" });
    const unpaid = await taskAt(t, "claimed");
    const r2 = await withdraw(unpaid.provider, unpaid.task.id);
    expect(r2.statusCode).toBe(409);
    expect(r2.json()).toEqual({ message: "The poster has not paid yet; release the claim instead" });
  });

  it("refuses once work has started", async () => {
    const { task, provider } = await taskAt(t, "in_progress");
    const res = await withdraw(provider, task.id);
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toContain("already started");
    expect(await escrow(task.id)).toBe(task.totalCents);
  });
});

describe("races", () => {
  it("withdraw against the poster's cancel: the poster is refunded exactly once, whichever runs first", async () => {
    for (let i = 0; i < 3; i += 1) {
      const { task, poster, provider } = await taskAt(t, "paid");
      const [w, c] = await Promise.all([withdraw(provider, task.id), call(t, poster, { method: "PATCH", url: `/api/tasks/${task.id}/cancel` })]);
      // Cancel first: the withdrawal finds a cancelled task. Withdraw first: the poster cancels the reopened task.
      expect(c.statusCode).toBe(200);
      expect([200, 409]).toContain(w.statusCode);
      expect((await taskRow(t, task.id)).status).toBe("cancelled");
      expect(await refunds(task.id)).toHaveLength(1);
      expect(await escrow(task.id)).toBe(0);
    }
  });

  it("release against the poster's payment: a capture that lost is refunded, nothing stays in escrow", async () => {
    for (let i = 0; i < 3; i += 1) {
      const { task, poster, provider } = await taskAt(t, "claimed");
      await startPayment(t, poster, task);
      const [r, p] = await Promise.all([release(provider, task.id), payWithCard(t, poster, task)]);
      const row = await taskRow(t, task.id);
      if (r.statusCode === 200) {
        // The claim was given back first: the card is never kept for an open task.
        expect(row).toMatchObject({ status: "open", paymentCapturedAt: null });
        expect(await escrow(task.id)).toBe(0);
      } else {
        expect(r.statusCode).toBe(409);
        expect(p.statusCode).toBe(200);
        expect(row.paymentCapturedAt).not.toBeNull();
        expect(await escrow(task.id)).toBe(task.totalCents);
      }
    }
  });
});

describe("the reliability line", () => {
  it("counts withdrawals of all kept or given-back claims, and says nothing before the first", async () => {
    const provider = await createProvider(t);
    await taskAt(t, "completed", { provider });
    expect((await profileOf(provider.id)).claims).toMatchObject({ withdrawn: 0, claimed: 1, noShows: 0, lateStarts: 0 });
    expect(reliabilityLine((await profileOf(provider.id)).claims)).toBeNull();

    const paid = await taskAt(t, "paid", { provider });
    expect((await withdraw(provider, paid.task.id)).statusCode).toBe(200);
    const unpaid = await taskAt(t, "claimed", { provider });
    expect((await release(provider, unpaid.task.id)).statusCode).toBe(200);
    const claims = (await profileOf(provider.id)).claims;
    expect(claims).toMatchObject({ withdrawn: 2, claimed: 3, noShows: 0, lateStarts: 0 });
    expect(reliabilityLine(claims)).toBe("Withdrew from 2 of 3 claimed tasks");
  });
});
