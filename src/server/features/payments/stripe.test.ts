import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { call, createUser, useTestApp } from "../../../../test/create-test-app.js";
import { queryRows } from "../../db/client.js";
import { payments, tips, webhookEvents } from "../../db/schema/payments.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { tasks } from "../../db/schema/tasks.js";
import { expire, taskAt, transition } from "../../../../test/fixtures/factory.js";
import { ACCOUNTS, accountBalance } from "./ledger.js";

// The Stripe adapter against a local fake of Stripe's API: every request is recorded with its
// form-encoded body and Idempotency-Key, and a repeated key answers the first response, as Stripe does.

interface Recorded {
  method: string;
  path: string;
  body: URLSearchParams;
  idempotencyKey: string | undefined;
}

const recorded: Recorded[] = [];
const byKey = new Map<string, unknown>();
let counter = 0;

function respond(path: string, body: URLSearchParams): unknown {
  counter += 1;
  switch (path) {
    case "/v1/payment_intents":
      return { id: `pi_${counter}`, object: "payment_intent", amount: Number(body.get("amount")), client_secret: `pi_${counter}_secret_abc` };
    case "/v1/refunds":
      return { id: `re_${counter}`, object: "refund" };
    case "/v1/transfers":
      return { id: `tr_${counter}`, object: "transfer" };
    case "/v1/accounts":
      return { id: `acct_${counter}`, object: "account" };
    case "/v1/account_links":
      return { object: "account_link", url: `https://connect.stripe.test/setup/${counter}` };
    default:
      return null;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const fake = createServer((req, res) => {
  void readBody(req).then((text) => {
    const path = (req.url ?? "").split("?")[0] ?? "";
    const key = req.headers["idempotency-key"];
    const body = new URLSearchParams(text);
    recorded.push({ method: req.method ?? "", path, body, idempotencyKey: typeof key === "string" ? key : undefined });
    const cacheKey = typeof key === "string" ? `${path}:${key}` : null;
    const answer = (cacheKey && byKey.get(cacheKey)) ?? respond(path, body);
    if (cacheKey) byKey.set(cacheKey, answer);
    res.writeHead(answer ? 200 : 404, { "content-type": "application/json", "request-id": `req_${counter}` });
    res.end(JSON.stringify(answer ?? { error: { type: "invalid_request_error", message: "Unknown path" } }));
  });
});
await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
afterAll(() => new Promise<void>((resolve) => fake.close(() => resolve())));

const SECRET = "whsec_test_secret";
const t = await useTestApp({
  STRIPE_SECRET_KEY: "sk_test_fake",
  STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
  STRIPE_WEBHOOK_SECRET: SECRET,
  STRIPE_API_URL: `http://127.0.0.1:${(fake.address() as AddressInfo).port}`,
});
const signer = new Stripe("sk_test_fake");

beforeEach(() => {
  recorded.length = 0;
});

let eventCounter = 0;
function event(type: string, object: Record<string, unknown>, id = `evt_${++eventCounter}`) {
  return JSON.stringify({ id, object: "event", type, data: { object } });
}

function sendWebhook(payload: string, options: { tamper?: boolean; ageSeconds?: number } = {}) {
  const timestamp = Math.floor(t.clock.now().getTime() / 1000) - (options.ageSeconds ?? 0);
  const signature = signer.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp });
  // No Origin header: Stripe calls server to server.
  return t.app.inject({
    method: "POST",
    url: "/api/stripe/webhook",
    headers: { "content-type": "application/json", "stripe-signature": signature },
    payload: options.tamper ? payload.replace("succeeded", "succeeded ") : payload,
  });
}

const claimedTask = (budgetCents: number) => taskAt(t, "claimed", { budgetCents });

async function startPayment(poster: Awaited<ReturnType<typeof createUser>>, task: { id: string; totalCents: number }) {
  const res = await call(t, poster, { method: "POST", url: "/api/create-payment-intent", payload: { amount: task.totalCents / 100, taskId: task.id } });
  expect(res.statusCode).toBe(200);
  const [payment] = await t.database.db.select().from(payments).where(eq(payments.taskId, task.id));
  if (!payment?.gatewayRef) throw new Error("no payment intent");
  return { clientSecret: res.json<{ clientSecret: string }>().clientSecret, payment, intentId: payment.gatewayRef };
}

const succeeded = (intentId: string, id?: string) => event("payment_intent.succeeded", { id: intentId, object: "payment_intent", metadata: {} }, id);

describe("Stripe gateway", () => {
  it("tells the web which gateway and key to use", async () => {
    const res = await call(t, null, { method: "GET", url: "/api/payments/config" });
    expect(res.json()).toEqual({ gateway: "stripe", publishableKey: "pk_test_fake" });
  });

  it("creates one PaymentIntent in cents with a key from our payment id; the sandbox confirm is off", async () => {
    const { poster, task } = await claimedTask(5000);
    const first = await startPayment(poster, task);
    const second = await startPayment(poster, task);
    expect(second.clientSecret).toBe(first.clientSecret);
    const creates = recorded.filter((r) => r.path === "/v1/payment_intents");
    expect(creates).toHaveLength(1);
    expect(creates[0]?.body.get("amount")).toBe(String(task.totalCents));
    expect(creates[0]?.body.get("currency")).toBe("usd");
    expect(creates[0]?.idempotencyKey).toBe(`pi-${first.payment.id}`);
    const sandbox = await call(t, poster, {
      method: "POST",
      url: "/api/sandbox/payments/confirm",
      payload: { clientSecret: first.clientSecret, cardNumber: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" },
    });
    expect(sandbox.statusCode).toBe(404);
  });

  it("captures only through a correctly signed, fresh webhook, once per event id", async () => {
    const { poster, task } = await claimedTask(5000);
    const { intentId } = await startPayment(poster, task);
    const payload = succeeded(intentId);

    const tampered = await sendWebhook(payload, { tamper: true });
    expect(tampered.statusCode).toBe(400);
    const old = await sendWebhook(payload, { ageSeconds: 600 });
    expect(old.statusCode).toBe(400);
    const unsigned = await t.app.inject({ method: "POST", url: "/api/stripe/webhook", headers: { "content-type": "application/json" }, payload });
    expect(unsigned.statusCode).toBe(400);
    const [unpaid] = await t.database.db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(unpaid?.paymentCapturedAt).toBeNull();

    expect((await sendWebhook(payload)).statusCode).toBe(200);
    expect(await accountBalance(t.app.ctx, ACCOUNTS.escrow(task.id))).toBe(task.totalCents);
    // The same event again, and a second event for the same intent: nothing moves twice.
    expect((await sendWebhook(payload)).statusCode).toBe(200);
    expect((await sendWebhook(succeeded(intentId))).statusCode).toBe(200);
    expect(await accountBalance(t.app.ctx, ACCOUNTS.escrow(task.id))).toBe(task.totalCents);
    const seen = await t.database.db.select().from(webhookEvents);
    expect(seen.length).toBeGreaterThanOrEqual(2);
  });

  it("keeps the card's last four digits from charge.succeeded for the poster's receipt", async () => {
    const { poster, task } = await claimedTask(5000);
    const { intentId } = await startPayment(poster, task);
    const charge = { id: "ch_1", object: "charge", payment_intent: intentId, payment_method_details: { type: "card", card: { brand: "visa", last4: "1881" } } };
    expect((await sendWebhook(event("charge.succeeded", charge))).statusCode).toBe(200);
    expect((await sendWebhook(succeeded(intentId))).statusCode).toBe(200);
    const [stored] = await t.database.db.select().from(payments).where(eq(payments.gatewayRef, intentId));
    expect(stored?.cardLast4).toBe("1881");
    const receipts = await call(t, poster, { method: "GET", url: "/api/receipts" });
    const [receipt] = receipts.json<{ receipts: { id: string }[] }>().receipts;
    const shown = await call(t, poster, { method: "GET", url: `/api/receipts/${receipt?.id}` });
    expect(shown.json()).toMatchObject({ kind: "payment", cardLast4: "1881", amount: task.totalCents / 100 });
  });

  it("refunds from the platform with a key from the payment when a paid task is cancelled", async () => {
    const { poster, task } = await claimedTask(5000);
    const { intentId, payment } = await startPayment(poster, task);
    await sendWebhook(succeeded(intentId));
    expect(await transition(t, "cancel", task.id, poster)).not.toBeNull();
    const refunds = recorded.filter((r) => r.path === "/v1/refunds");
    expect(refunds).toHaveLength(1);
    expect(refunds[0]?.idempotencyKey).toBe(`re-${payment.id}`);
    expect(refunds[0]?.body.get("payment_intent")).toBe(intentId);
    expect(refunds[0]?.body.get("amount")).toBe(String(task.totalCents));
  });

  it("refunds a capture that arrives after the deadline and leaves the task unpaid", async () => {
    const { poster, task } = await claimedTask(5000);
    const { intentId } = await startPayment(poster, task);
    t.clock.advance(31 * 60_000);
    expect((await sendWebhook(succeeded(intentId))).statusCode).toBe(200);
    const [row] = await t.database.db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(row?.paymentCapturedAt).toBeNull();
    expect(recorded.filter((r) => r.path === "/v1/refunds")).toHaveLength(1);
    expect(await accountBalance(t.app.ctx, ACCOUNTS.escrow(task.id))).toBe(0);
  });

  it("takes a new payment after a late capture was refunded and the task was reactivated and claimed again", async () => {
    const { poster, task } = await claimedTask(5000);
    const late = await startPayment(poster, task);
    t.clock.advance(31 * 60_000);
    expect((await sendWebhook(succeeded(late.intentId))).statusCode).toBe(200);
    expect((await expire(t, task)).status).toBe("payment_expired");
    expect(await transition(t, "reactivate", task.id, poster)).not.toBeNull();
    const second = await createUser(t, { verifiedProvider: true });
    expect(await transition(t, "claim", task.id, second)).not.toBeNull();

    recorded.length = 0;
    const res = await call(t, poster, { method: "POST", url: "/api/create-payment-intent", payload: { amount: task.totalCents / 100, taskId: task.id } });
    expect(res.statusCode).toBe(200);
    const rows = await t.database.db.select().from(payments).where(eq(payments.taskId, task.id));
    const fresh = rows.find((row) => row.id !== late.payment.id);
    expect(rows.find((row) => row.id === late.payment.id)?.status).toBe("refunded");
    expect(fresh?.clientSecret).toBe(res.json<{ clientSecret: string }>().clientSecret);
    expect(fresh?.clientSecret).not.toBe(late.clientSecret);
    expect(recorded.filter((r) => r.path === "/v1/payment_intents").map((r) => r.idempotencyKey)).toEqual([`pi-${fresh?.id}`]);

    expect((await sendWebhook(succeeded(fresh?.gatewayRef ?? ""))).statusCode).toBe(200);
    const [paid] = await t.database.db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(paid?.paymentCapturedAt).not.toBeNull();
    expect(await accountBalance(t.app.ctx, ACCOUNTS.escrow(task.id))).toBe(task.totalCents);
    // Two captures and one refund, each balanced: the second charge has its own ledger entry.
    const ledger = await queryRows<{ kind: string; key: string; total: string }>(
      t.database.db,
      sql`select x.kind, x.idempotency_key as key, sum(e.amount_cents) as total from ledger_transactions x
          join ledger_entries e on e.transaction_id = x.id where x.task_id = ${task.id} group by x.id order by x.created_at, x.kind`,
    );
    expect(ledger.map((row) => [row.kind, row.key, Number(row.total)]).sort()).toEqual(
      [
        ["capture", late.payment.id, 0],
        ["capture", fresh?.id, 0],
        ["refund", late.payment.id, 0],
      ].sort(),
    );
    const [fresher] = await t.database.db.select().from(payments).where(eq(payments.id, fresh?.id ?? ""));
    expect(fresher?.status).toBe("captured");
  });

  it("charges a tip through a PaymentIntent and credits it to the provider only on the webhook", async () => {
    const { poster, provider, task } = await claimedTask(5000);
    const { intentId } = await startPayment(poster, task);
    await sendWebhook(succeeded(intentId));
    expect(await transition(t, "start", task.id, provider)).not.toBeNull();
    expect(await transition(t, "complete", task.id, provider)).not.toBeNull();
    const before = await accountBalance(t.app.ctx, ACCOUNTS.providerBalance(provider.id));
    const tip = () =>
      call(t, poster, { method: "POST", url: `/api/tasks/${task.id}/tip`, payload: { amount: 12, idempotencyKey: "8d0f1c9e-3f4a-4b7c-9e2d-5a6b7c8d9e0f" } });
    const res = await tip();
    expect(res.json()).toMatchObject({ status: "requires_payment", clientSecret: expect.stringMatching(/_secret_/) });
    // A double submit answers the same PaymentIntent: one charge.
    expect((await tip()).json()).toEqual(res.json());
    const creates = recorded.filter((r) => r.path === "/v1/payment_intents");
    expect(creates).toHaveLength(2);
    const create = creates.at(-1);
    expect(create?.body.get("amount")).toBe("1200");
    expect(create?.idempotencyKey).toMatch(/^tip-[0-9a-f-]{36}$/);
    expect(await accountBalance(t.app.ctx, ACCOUNTS.providerBalance(provider.id))).toBe(before);
    const [tipIntent] = await t.database.db.select().from(tips).where(eq(tips.taskId, task.id));
    await sendWebhook(succeeded(tipIntent?.gatewayRef ?? ""));
    expect(await accountBalance(t.app.ctx, ACCOUNTS.providerBalance(provider.id))).toBe(before + 1200);
    expect((await tip()).json()).toEqual({ status: "succeeded", clientSecret: null });
  });

  it("onboards with an Express account and an Account Link, then transfers the provider's share at release", async () => {
    const { poster, provider, task } = await claimedTask(5000);
    const account = await call(t, provider, { method: "POST", url: "/api/stripe/connect/account" });
    expect(account.statusCode).toBe(201);
    const accountId = account.json<{ accountId: string }>().accountId;
    const accountRequest = recorded.find((r) => r.path === "/v1/accounts");
    expect(accountRequest?.body.get("type")).toBe("express");
    const link = await call(t, provider, { method: "POST", url: "/api/stripe/connect/account-link" });
    expect(link.json().url).toMatch(/^https:\/\/connect\.stripe\.test\//);
    const linkRequest = recorded.find((r) => r.path === "/v1/account_links");
    expect(linkRequest?.body.get("return_url")).toBe("http://localhost:3000/dashboard?setup=success");
    expect(linkRequest?.body.get("refresh_url")).toBe("http://localhost:3000/dashboard?error=stripe_error");

    await sendWebhook(event("account.updated", { id: accountId, object: "account", payouts_enabled: true, details_submitted: true }));
    const [profile] = await t.database.db.select().from(providerProfiles).where(eq(providerProfiles.userId, provider.id));
    expect(profile).toMatchObject({ payoutsEnabled: true, stripeOnboardingComplete: true });
    // Each change of the payout details is in the provider's security log (decision 050); the
    // provider's report of the details has no address of theirs.
    const log = (await call(t, provider, { url: "/api/account/security/events" })).json<{ event: string; description: string; ip: string | null }[]>();
    expect(log.find((e) => e.event === "payout_account_updated")).toMatchObject({ description: "Payout details updated at the payment provider", ip: null });
    expect(log.map((e) => e.event)).toEqual(expect.arrayContaining(["payout_account_created", "payout_details_opened"]));

    const { intentId } = await startPayment(poster, task);
    await sendWebhook(succeeded(intentId));
    expect(await transition(t, "start", task.id, provider)).not.toBeNull();
    expect(await transition(t, "complete", task.id, provider)).not.toBeNull();
    await t.app.ctx.scheduler.runAll();
    const transfers = recorded.filter((r) => r.path === "/v1/transfers");
    expect(transfers).toHaveLength(1);
    expect(transfers[0]?.body.get("amount")).toBe("4250");
    expect(transfers[0]?.body.get("destination")).toBe(accountId);
    expect(transfers[0]?.idempotencyKey).toMatch(/^tr-[0-9a-f-]{36}$/);
    await t.app.ctx.scheduler.runAll();
    expect(recorded.filter((r) => r.path === "/v1/transfers")).toHaveLength(1);
  });
});
