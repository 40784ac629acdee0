import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { STUCK_PROCESSING_MS } from "../../../shared/money-lifecycle.js";
import { call, useTestApp } from "../../../../test/create-test-app.js";
import { startPayment, taskAt } from "../../../../test/fixtures/factory.js";
import { payments } from "../../db/schema/payments.js";
import { ACCOUNTS, accountBalance } from "./ledger.js";

// A sandbox confirm cut off after "processing" and before its capture (a killed process, a lost
// database; test/faults/process-kill.faults.ts) must not block the task's payment for good.

const t = await useTestApp();

const CARD = { cardNumber: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" };

async function cutOffPayment() {
  const { poster, task } = await taskAt(t, "claimed", { budgetCents: 5000 });
  const { clientSecret } = await startPayment(t, poster, task);
  // What a confirm leaves behind when the process dies right after claiming the payment.
  await t.database.db.update(payments).set({ status: "processing", updatedAt: t.clock.now() }).where(eq(payments.taskId, task.id));
  return { poster, task, clientSecret };
}

const confirm = (cookieOwner: Awaited<ReturnType<typeof cutOffPayment>>["poster"], clientSecret: string) =>
  call(t, cookieOwner, { method: "POST", url: "/api/sandbox/payments/confirm", payload: { clientSecret, ...CARD } });

async function paymentStatus(taskId: string) {
  const [row] = await t.database.db.select({ status: payments.status }).from(payments).where(eq(payments.taskId, taskId));
  return row?.status;
}

describe("payments cut off while processing", () => {
  it("are handed back as failed after the stuck window, and the poster can then pay once", async () => {
    const { poster, task, clientSecret } = await cutOffPayment();
    expect((await confirm(poster, clientSecret)).statusCode).toBe(409);

    t.clock.advance(STUCK_PROCESSING_MS - 1_000);
    await t.app.ctx.scheduler.runAll();
    expect(await paymentStatus(task.id)).toBe("processing");

    t.clock.advance(1_000);
    await t.app.ctx.scheduler.runAll();
    expect(await paymentStatus(task.id)).toBe("failed");

    expect((await confirm(poster, clientSecret)).statusCode).toBe(200);
    expect(await paymentStatus(task.id)).toBe("captured");
    expect(await accountBalance(t.app.ctx, ACCOUNTS.escrow(task.id))).toBe(task.totalCents);
  });

  it("never touches a payment whose capture committed", async () => {
    const { poster, task, clientSecret } = await cutOffPayment();
    await t.database.db.update(payments).set({ status: "failed" }).where(eq(payments.taskId, task.id));
    expect((await confirm(poster, clientSecret)).statusCode).toBe(200);
    t.clock.advance(STUCK_PROCESSING_MS * 2);
    await t.app.ctx.scheduler.runAll();
    expect(await paymentStatus(task.id)).toBe("captured");
  });
});
