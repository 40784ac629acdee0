import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CreateTaskBody, TaskPrivate } from "../../../shared/tasks.js";
import { tasks } from "../../db/schema/tasks.js";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { pay } from "../../../../test/fixtures/factory.js";
import type { TaskAction } from "../../../shared/task-lifecycle.js";
import type { TaskActionEvent } from "../../transition-actions.js";

const t = await useTestApp({ PAYMENT_WINDOW_MINUTES: "30" });
const WINDOW_MS = 30 * 60_000;

const admin = await createUser(t, { role: "admin" });
const stranger = await createUser(t, { role: "user" });
const unverified = await createUser(t, { role: "provider" });

const baseTask: CreateTaskBody = {
  title: "Pick up groceries",
  description: "Twenty items from the store on Main St",
  category: "errands",
  budget: 40,
  urgency: "standard",
  location: "58 West St",
  city: "Annapolis",
  state: "MD",
  lat: 38.97841,
  lon: -76.49223,
};

async function post(user: TestUser, body: Partial<CreateTaskBody> = {}): Promise<TaskPrivate> {
  const res = await call(t, user, { method: "POST", url: "/api/tasks", payload: { ...baseTask, ...body } });
  expect(res.statusCode).toBe(201);
  return res.json();
}

const act = (user: TestUser | null, id: string, name: string) => call(t, user, { method: "PATCH", url: `/api/tasks/${id}/${name}` });


async function row(id: string) {
  const [found] = await t.database.db.select().from(tasks).where(eq(tasks.id, id));
  if (!found) throw new Error("task missing");
  return found;
}

interface Cast {
  poster: TestUser;
  provider: TestUser;
  other: TestUser;
}

async function cast(): Promise<Cast> {
  return {
    poster: await createUser(t),
    provider: await createUser(t, { verifiedProvider: true }),
    other: await createUser(t, { verifiedProvider: true }),
  };
}

/** A task of `c.poster` moved to `status` along the table's own edges. */
async function taskIn(c: Cast, status: "open" | "claimed" | "paid" | "in_progress" | "payment_expired"): Promise<string> {
  const task = await post(c.poster);
  if (status === "open") return task.id;
  expect((await act(c.provider, task.id, "claim")).statusCode).toBe(200);
  if (status === "claimed") return task.id;
  if (status === "payment_expired") {
    t.clock.advance(WINDOW_MS);
    await t.app.ctx.scheduler.runAll();
    expect((await row(task.id)).status).toBe("payment_expired");
    return task.id;
  }
  // The real payment: the sandbox card form, whose capture runs the table's "pay" for the payment system.
  await pay(t, c.poster, await row(task.id));
  if (status === "paid") return task.id;
  expect((await act(c.provider, task.id, "start")).statusCode).toBe(200);
  return task.id;
}

type Who = "poster" | "provider" | "other" | "unverified" | "admin" | "signedOut" | "stranger";

function who(c: Cast, w: Who): TestUser | null {
  switch (w) {
    case "poster":
      return c.poster;
    case "provider":
      return c.provider;
    case "other":
      return c.other;
    case "unverified":
      return unverified;
    case "admin":
      return admin;
    case "stranger":
      return stranger;
    case "signedOut":
      return null;
  }
}

describe("every transition for every actor", () => {
  const cases: {
    name: string;
    from: "open" | "claimed" | "paid" | "in_progress" | "payment_expired";
    allowed: Who;
    to: string;
    refused: [Who, number, RegExp][];
  }[] = [
    {
      name: "claim",
      from: "open",
      allowed: "provider",
      to: "claimed",
      refused: [
        ["signedOut", 401, /Unauthorized/],
        ["poster", 403, /cannot claim your own task/],
        ["unverified", 403, /Only verified providers/],
        ["stranger", 403, /Only verified providers/],
        ["admin", 403, /Only verified providers/],
      ],
    },
    {
      name: "start",
      from: "paid",
      allowed: "provider",
      to: "in_progress",
      refused: [
        ["signedOut", 401, /Unauthorized/],
        ["poster", 403, /Only the assigned provider can start/],
        ["other", 403, /Only the assigned provider can start/],
        ["unverified", 403, /Only the assigned provider/],
        ["admin", 403, /Only the assigned provider/],
      ],
    },
    {
      name: "complete",
      from: "in_progress",
      allowed: "provider",
      to: "completed",
      refused: [
        ["signedOut", 401, /Unauthorized/],
        ["poster", 403, /Only the assigned provider can complete/],
        ["other", 403, /Only the assigned provider/],
        ["unverified", 403, /Only the assigned provider/],
        ["admin", 403, /Only the assigned provider/],
      ],
    },
    {
      name: "cancel",
      from: "open",
      allowed: "poster",
      to: "cancelled",
      refused: [
        ["signedOut", 401, /Unauthorized/],
        ["provider", 403, /Only the task owner can cancel/],
        ["unverified", 403, /Only the task owner/],
        ["admin", 403, /Only the task owner/],
      ],
    },
    {
      name: "cancel",
      from: "claimed",
      allowed: "poster",
      to: "cancelled",
      refused: [
        ["provider", 403, /Only the task owner can cancel/],
        ["other", 403, /Only the task owner/],
        ["admin", 403, /Only the task owner/],
      ],
    },
    {
      name: "reactivate",
      from: "payment_expired",
      allowed: "poster",
      to: "open",
      refused: [
        ["signedOut", 401, /Unauthorized/],
        ["provider", 403, /Only the task owner can reactivate/],
        ["other", 403, /Only the task owner/],
        ["unverified", 403, /Only the task owner/],
        ["admin", 403, /Only the task owner/],
      ],
    },
  ];

  it.each(cases)("$name from $from: refused for the wrong actors, allowed for $allowed", async (tc) => {
    const c = await cast();
    const id = await taskIn(c, tc.from);
    const before = await row(id);
    for (const [w, status, message] of tc.refused) {
      const res = await act(who(c, w), id, tc.name);
      expect({ who: w, status: res.statusCode }).toEqual({ who: w, status });
      expect(res.json().message).toMatch(message);
    }
    expect(await row(id)).toEqual(before);
    const ok = await act(who(c, tc.allowed), id, tc.name);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().status).toBe(tc.to);
    expect((await row(id)).status).toBe(tc.to);
  });

  it.each([
    ["claim", "claimed", "other", /already been claimed/],
    ["claim", "in_progress", "other", /already been claimed/],
    ["start", "claimed", "provider", /Waiting for customer payment to start work/],
    ["start", "in_progress", "provider", /already been started/],
    ["complete", "paid", "provider", /Only a task in progress can be completed/],
    ["cancel", "in_progress", "poster", /Only an open or claimed task can be cancelled/],
    ["reactivate", "open", "poster", /Only a task whose payment expired/],
  ] as const)("%s on a %s task answers 409 to the right actor (%s)", async (name, from, w, message) => {
    const c = await cast();
    const id = await taskIn(c, from);
    const before = await row(id);
    const res = await act(who(c, w), id, name);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(message);
    expect(await row(id)).toEqual(before);
  });

  it("completed and cancelled tasks take no action", async () => {
    const c = await cast();
    const done = await taskIn(c, "in_progress");
    expect((await act(c.provider, done, "complete")).statusCode).toBe(200);
    expect((await act(c.provider, done, "complete")).json().message).toMatch(/already completed/);
    expect((await act(c.poster, done, "cancel")).statusCode).toBe(409);
    const open = await taskIn(c, "open");
    expect((await act(c.poster, open, "cancel")).statusCode).toBe(200);
    const again = await act(c.poster, open, "cancel");
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already cancelled/);
    expect((await act(c.provider, open, "claim")).statusCode).toBe(409);
  });

  it("answers 404 for an unknown task and 400 for a malformed id", async () => {
    const c = await cast();
    const missing = await act(c.provider, "00000000-0000-4000-8000-000000000000", "claim");
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe("Task not found");
    const bad = await act(c.provider, "not-a-uuid", "claim");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/id/);
  });
});

describe("claim", () => {
  it("assigns the provider, stamps the claim and opens the payment window", async () => {
    const c = await cast();
    const id = await taskIn(c, "open");
    const res = await act(c.provider, id, "claim");
    expect(res.json()).toMatchObject({
      status: "claimed",
      providerId: c.provider.id,
      paymentDeadline: new Date(t.clock.now().getTime() + WINDOW_MS).toISOString(),
      paymentCapturedAt: null,
      // The claimer's card (docs/decisions/024-declining-a-provider.md), with the full name for this insider.
      provider: { id: c.provider.id, completedTasks: 0, reviewCount: 0, rating: null },
    });
    const stored = await row(id);
    expect(stored.claimedAt?.toISOString()).toBe(t.clock.now().toISOString());
  });

  it("gives exactly one winner among 200 concurrent verified providers", async () => {
    const poster = await createUser(t);
    const task = await post(poster);
    const providers: TestUser[] = [];
    for (let i = 0; i < 200; i++) providers.push(await createUser(t, { verifiedProvider: true }));
    // Each from an address of their own, as 200 people are: one address's share of the server's
    // line is bounded (docs/decisions/043-slow-requests-bounded.md).
    const results = await Promise.all(
      providers.map((p, i) => call(t, p, { method: "PATCH", url: `/api/tasks/${task.id}/claim`, remoteAddress: `127.0.${i >> 8}.${(i & 255) + 1}` })),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((s) => s === 200)).toHaveLength(1);
    expect(codes.filter((s) => s === 409)).toHaveLength(199);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json().message).toBe("This task has already been claimed");
    const winner = providers[codes.indexOf(200)];
    expect((await row(task.id)).providerId).toBe(winner?.id);
  });
});

/** Watches the task actions run (each with its event), and lets some fail, until the test ends. */
function watchActions(fail?: (action: TaskAction, event: TaskActionEvent) => boolean) {
  const actions = t.app.ctx.taskActions;
  const run = actions.run.bind(actions);
  const seen: { action: TaskAction; event: TaskActionEvent }[] = [];
  vi.spyOn(actions, "run").mockImplementation(async (action, event) => {
    seen.push({ action, event });
    if (fail?.(action, event)) throw new Error("handler failed");
    await run(action, event);
  });
  return seen;
}

afterEach(() => vi.restoreAllMocks());

describe("task actions", () => {
  it("runs actions inside the transition's transaction: a failing action undoes the transition", async () => {
    const c = await cast();
    const id = await taskIn(c, "claimed");
    let fail = true;
    const seen = watchActions((action, event) => fail && action === "escrow.refund" && event.task.id === id);
    const failed = await act(c.poster, id, "cancel");
    expect(failed.statusCode).toBe(500);
    expect((await row(id)).status).toBe("claimed");
    fail = false;
    expect((await act(c.poster, id, "cancel")).statusCode).toBe(200);
    const refunds = seen.filter(({ action, event }) => action === "escrow.refund" && event.task.id === id);
    expect(refunds.map(({ event }) => `${event.transition}:${event.task.status}:${event.actorId}`)).toEqual([
      `cancel:cancelled:${c.poster.id}`,
      `cancel:cancelled:${c.poster.id}`,
    ]);
  });

  it("emits expire with no actor and the released task", async () => {
    const c = await cast();
    const id = await taskIn(c, "claimed");
    const watched = watchActions();
    t.clock.advance(WINDOW_MS);
    await t.app.ctx.scheduler.runAll();
    const seen = watched
      .filter(({ action, event }) => action === "announce" && event.transition === "expire" && event.task.id === id)
      .map(({ event }) => ({ providerId: event.task.providerId, actorId: event.actorId }));
    expect(seen).toEqual([{ providerId: null, actorId: null }]);
  });
});

describe("payment deadline sweeper", () => {
  it("expires an unpaid claim at the deadline and not a millisecond before", async () => {
    const c = await cast();
    const id = await taskIn(c, "claimed");
    t.clock.advance(WINDOW_MS - 1);
    await t.app.ctx.scheduler.runAll();
    expect((await row(id)).status).toBe("claimed");
    t.clock.advance(1);
    await t.app.ctx.scheduler.runAll();
    const expired = await row(id);
    expect(expired).toMatchObject({ status: "payment_expired", providerId: null, paymentDeadline: null });
    // The released provider no longer sees it among their jobs, nor its address.
    const jobs = await call(t, c.provider, { url: "/api/tasks/my-jobs" });
    expect(jobs.json().map((j: { id: string }) => j.id)).not.toContain(id);
    const detail = await call(t, c.provider, { url: `/api/tasks/${id}` });
    expect(detail.json().visibility).toBe("public");
  });

  it("never expires a paid claim", async () => {
    const c = await cast();
    const id = await taskIn(c, "paid");
    t.clock.advance(10 * WINDOW_MS);
    await t.app.ctx.scheduler.runAll();
    expect((await row(id)).status).toBe("claimed");
    expect((await act(c.provider, id, "start")).statusCode).toBe(200);
  });

  it("is safe when several instances sweep at once", async () => {
    const c = await cast();
    const ids = [await taskIn(c, "open"), await taskIn(c, "open"), await taskIn(c, "open")];
    for (const id of ids) expect((await act(c.other, id, "claim")).statusCode).toBe(200);
    const watched = watchActions();
    t.clock.advance(WINDOW_MS);
    await Promise.all([t.app.ctx.scheduler.runAll(), t.app.ctx.scheduler.runAll(), t.app.ctx.scheduler.runAll()]);
    const seen = watched.filter(({ action, event }) => action === "announce" && event.transition === "expire" && ids.includes(event.task.id)).map(({ event }) => event.task.id);
    expect(seen.sort()).toEqual([...ids].sort());
    for (const id of ids) expect((await row(id)).status).toBe("payment_expired");
  });

  it("reactivate opens the task again and another provider can claim it", async () => {
    const c = await cast();
    const id = await taskIn(c, "payment_expired");
    const reopened = await act(c.poster, id, "reactivate");
    expect(reopened.json()).toMatchObject({ status: "open", providerId: null, paymentDeadline: null });
    const claimed = await act(c.other, id, "claim");
    expect(claimed.statusCode).toBe(200);
    expect(claimed.json()).toMatchObject({
      providerId: c.other.id,
      paymentDeadline: new Date(t.clock.now().getTime() + WINDOW_MS).toISOString(),
    });
  });
});

describe("role rule", () => {
  it("makes a provider who posts a task 'both'", async () => {
    const provider = await createUser(t, { verifiedProvider: true });
    await post(provider);
    const me = await call(t, provider, { url: "/api/auth/user" });
    expect(me.json().role).toBe("both");
    const user = await createUser(t);
    await post(user);
    expect((await call(t, user, { url: "/api/auth/user" })).json().role).toBe("user");
  });
});
