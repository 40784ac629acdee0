import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { BASE_BODY, createPoster, createProvider, makeOffer, postOffersTask, postTask, reportProblem, taskAt, transition } from "../../../../test/fixtures/factory.js";
import { pdfText } from "../../../../test/pdf-text.js";
import { PROVIDER_SHARE_PERCENT } from "../../../shared/constants.js";
import { FEE_RULES } from "../../../shared/money.js";
import type { Earnings, TaskEscrow } from "../../../shared/payments.js";
import type { ReceiptList } from "../../../shared/receipts.js";
import type { TaskPrivate } from "../../../shared/tasks.js";
import { ACCOUNTS, accountBalance } from "./ledger.js";

// Line items are fixed when a task is priced (docs/decisions/073-one-account-of-each-tasks-money.md):
// changing the commission changes the price of tasks priced from then on, and nothing any surface
// says about a task priced before, nor what its money does when it moves later.

const t = await useTestApp();
const get = (who: TestUser | null, url: string) => call(t, who, { url });

afterEach(() => {
  FEE_RULES.providerSharePercent = PROVIDER_SHARE_PERCENT;
});

/** Everything any page, export or notice reads of these tasks' money, for the poster, the provider and an admin. */
async function everySurface(tasks: string[], people: { poster: TestUser; provider: TestUser; admin: TestUser }): Promise<unknown> {
  const { poster, provider, admin } = people;
  const year = t.clock.now().getUTCFullYear();
  const perTask = [];
  for (const id of tasks) {
    perTask.push({
      poster: (await get(poster, `/api/tasks/${id}`)).json(),
      stranger: (await get(null, `/api/tasks/${id}`)).json(),
      escrow: [(await get(poster, `/api/tasks/${id}/escrow`)).json(), (await get(admin, `/api/tasks/${id}/escrow`)).json()],
      dispute: (await get(admin, `/api/tasks/${id}/dispute`)).json(),
    });
  }
  const receipts = (await get(poster, "/api/receipts")).json<ReceiptList>();
  const receiptPages = [];
  for (const receipt of receipts.receipts) {
    receiptPages.push((await get(poster, `/api/receipts/${receipt.id}`)).json(), pdfText((await get(poster, `/api/receipts/${receipt.id}/pdf`)).rawPayload));
  }
  return {
    perTask,
    receipts,
    receiptPages,
    earnings: (await get(provider, "/api/payments/earnings")).json(),
    csv: (await get(provider, "/api/payments/earnings.csv")).body,
    statement: (await get(provider, `/api/payments/statements/${year}`)).json(),
    statementPdf: pdfText((await get(provider, `/api/payments/statements/${year}/pdf`)).rawPayload),
    board: (await get(null, "/api/tasks/open?pageSize=100")).json(),
    finance: (await get(admin, "/api/admin/finance")).json(),
    myTasks: (await get(poster, "/api/tasks/my-tasks")).json(),
    myJobs: (await get(provider, "/api/tasks/my-jobs")).json(),
  };
}

describe("changing the commission", () => {
  it("leaves every existing task's figures as they were", async () => {
    const poster = await createPoster(t);
    const provider = await createProvider(t);
    const admin = await createUser(t, { role: "admin" });
    const resolve = (taskId: string, refund: number, recoverFromProvider = false) =>
      call(t, admin, { method: "POST", url: `/api/admin/disputes/${taskId}/resolve`, payload: { refund, reason: "Checked", recoverFromProvider } });
    const options = { poster, provider };

    const open = await postTask(t, poster, { budgetCents: 4200 });
    const paid = await taskAt(t, "paid", { ...options, budgetCents: 3600 });
    const released = await taskAt(t, "completed", { ...options, budgetCents: 5000 });
    expect((await call(t, poster, { method: "POST", url: `/api/tasks/${released.task.id}/tip`, payload: { amount: 4, idempotencyKey: randomUUID() } })).statusCode).toBe(200);
    const held = await taskAt(t, "completed", { ...options, budgetCents: 15000, urgency: "urgent" });
    const settled = await taskAt(t, "in_progress", { ...options, budgetCents: 3600 });
    await reportProblem(t, poster, settled.task);
    expect((await resolve(settled.task.id, 15)).statusCode).toBe(200);
    const soon = new Date(t.clock.now().getTime() + 2 * 3_600_000).toISOString();
    const late = await taskAt(t, "paid", { ...options, budgetCents: 2500, body: { scheduledDate: soon } });
    expect(await transition(t, "cancel", late.task.id, poster)).not.toBeNull();
    const recovered = await taskAt(t, "completed", { ...options, budgetCents: 6000 });
    await reportProblem(t, poster, recovered.task);
    expect((await resolve(recovered.task.id, 10, true)).statusCode).toBe(200);
    const ids = [open, paid.task, released.task, held.task, settled.task, late.task, recovered.task].map((task) => task.id);
    const people = { poster, provider, admin };

    const before = await everySurface(ids, people);
    FEE_RULES.providerSharePercent = 70;
    expect(await everySurface(ids, people)).toEqual(before);

    // Money that moves after the change moves by the line items fixed before it: 85% of each.
    const balance = () => accountBalance(t.app.ctx, ACCOUNTS.providerBalance(provider.id));
    const start = await balance();
    expect((await call(t, poster, { method: "POST", url: `/api/tasks/${held.task.id}/approve-release` })).statusCode).toBe(200);
    const heldShare = held.task.providerShareCents;
    expect(heldShare).toBe(Math.floor(((15000 + 2250) * 85) / 100));
    expect(await balance()).toBe(start + heldShare);
    expect(await transition(t, "start", paid.task.id, provider)).not.toBeNull();
    expect(await transition(t, "complete", paid.task.id, provider)).not.toBeNull();
    expect(await balance()).toBe(start + heldShare + 3060);
    const earnings = (await get(provider, "/api/payments/earnings")).json<Earnings>();
    expect(earnings.tasks.find((row) => row.taskId === paid.task.id)).toMatchObject({ status: "released", earned: 30.6 });
    expect((await get(poster, `/api/tasks/${open.id}`)).json<TaskPrivate>()).toMatchObject({ providerShare: 35.7, platformCommission: 6.3 });

    // A price set now is set by the new rule: the seam is live.
    const repriced = await postTask(t, poster, { budgetCents: 4200 });
    expect(repriced).toMatchObject({ providerShareCents: 2940, platformCommissionCents: 1260 });
    const escrow = (await get(poster, `/api/tasks/${open.id}/escrow`)).json<TaskEscrow>();
    expect(escrow.statement.items).toMatchObject({ providerShare: 35.7, platformCommission: 6.3 });
  });

  it("prices again only where a price is set: an edit and an accepted offer store the rule in force", async () => {
    const poster = await createPoster(t);
    const task = await postTask(t, poster, { budgetCents: 4000 });
    const offered = await postOffersTask(t, poster, { budgetCents: 4000 });
    const offerId = await makeOffer(t, await createProvider(t), offered.id, { price: 60 });
    FEE_RULES.providerSharePercent = 70;
    const { title, description, location, city, state } = BASE_BODY;
    const edited = await call(t, poster, { method: "PATCH", url: `/api/tasks/${task.id}`, payload: { title, description, location, city, state, budget: 50 } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<TaskPrivate>()).toMatchObject({ budget: 50, providerShare: 35, platformCommission: 15 });
    const accepted = await call(t, poster, { method: "POST", url: `/api/tasks/${offered.id}/offers/${offerId}/accept`, payload: { price: 60 } });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await get(poster, `/api/tasks/${offered.id}`)).json<TaskPrivate>()).toMatchObject({ budget: 60, providerShare: 42, platformCommission: 18 });
  });
});
