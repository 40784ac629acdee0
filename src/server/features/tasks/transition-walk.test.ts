import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { MONEY_NOTICES } from "../../../shared/money-lifecycle.js";
import { findProcessStep, TASK_PROCESS, type TaskAction, type TaskProcessName } from "../../../shared/task-lifecycle.js";
import { notifications } from "../../db/schema/chat.js";
import { DECLARED_NOTICES, type NoticeAction } from "../../declared-notices.js";
import { escrowHolds, ledgerTransactions } from "../../db/schema/payments.js";
import { taskOffers } from "../../db/schema/offers.js";
import { taskDeclinedProviders, taskWithdrawals } from "../../db/schema/tasks.js";
import { providerBookings, taskNoShows } from "../../db/schema/calendar.js";
import { parseTaskUpdate, TASK_UPDATES_CHANNEL, type TaskUpdate } from "../../task-updates.js";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { BASE_BODY, createProvider, expire, makeOffer, pay, postOffersTask, postRequestTask, postTask, reportProblem, taskAt, taskRow, transition } from "../../../../test/fixtures/factory.js";

// Walks every row of the task table (src/shared/task-lifecycle.ts) through the real API and checks
// that each action the row names left its mark: a notice, a money record, a declined record, a live
// notice on the channel, a change of the cached job board
// (docs/decisions/045-transitions-name-their-actions.md). Some actions act only in some states (no
// refund without money held, no board change for a task that was not on it), so a row may be
// walked in several scenarios; together they must prove every action of the row.

const t = await useTestApp();

/** Every live notice heard on the channel, as every instance hears it. */
const heard: TaskUpdate[] = [];
await t.app.ctx.database.listen(TASK_UPDATES_CHANNEL, (payload) => {
  const update = parseTaskUpdate(payload);
  if (update) heard.push(update);
});

/** The task ids of the job board's first page, as any visitor gets it (the kept answer included). */
async function boardIds(): Promise<string[]> {
  const res = await call(t, null, { url: "/api/tasks/open?pageSize=30" });
  expect(res.statusCode).toBe(200);
  return (res.json() as { id: string }[]).map((card) => card.id);
}

async function noticeOf(userId: string, taskId: string, kind: string) {
  return t.database.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.taskId, taskId), eq(notifications.kind, kind as never)));
}

function party(user: TestUser | null, who: string): TestUser {
  if (!user) throw new Error(`This scenario has no ${who}`);
  return user;
}

interface Walk {
  taskId: string;
  poster: TestUser;
  /** The provider the transition concerns (the claimer, the declined or cancelled one). */
  provider: TestUser | null;
  /** Who saved a job alert that the task matches (posting only). */
  alerted: TestUser | null;
  name: TaskProcessName;
  /** The board's ids before the transition (read, so the board's answer is kept in its cache). */
  boardBefore: string[];
  /** The notices that existed before the transition. */
  noticesBefore: Set<string>;
}

/** How each action shows it ran; the Record makes a new action fail type checking here until it has one. */
const MARKS: Record<TaskAction, (walk: Walk) => Promise<void>> = {
  "notify.poster_claimed": async (w) => expect(await noticeOf(w.poster.id, w.taskId, "task_claimed")).toHaveLength(1),
  "notify.provider_declined": async (w) => expect(await noticeOf(party(w.provider, "provider").id, w.taskId, "task_declined")).toHaveLength(1),
  "notify.provider_cancelled": async (w) => expect(await noticeOf(party(w.provider, "provider").id, w.taskId, "task_cancelled")).toHaveLength(1),
  "notify.poster_work_started": async (w) => expect(await noticeOf(w.poster.id, w.taskId, "work_started")).toHaveLength(1),
  "notify.poster_work_completed": async (w) => expect(await noticeOf(w.poster.id, w.taskId, "work_completed")).toHaveLength(1),
  "notify.parties_removed": async (w) => expect(await noticeOf(w.poster.id, w.taskId, "moderation")).toHaveLength(1),
  "notify.poster_provider_released": async (w) => expect(await noticeOf(w.poster.id, w.taskId, "moderation")).toHaveLength(1),
  "escrow.hold": async (w) => expect(await t.database.db.select().from(escrowHolds).where(eq(escrowHolds.taskId, w.taskId))).toHaveLength(1),
  "escrow.late_fee": async (w) => {
    const fees = await t.database.db
      .select()
      .from(ledgerTransactions)
      .where(and(eq(ledgerTransactions.taskId, w.taskId), eq(ledgerTransactions.kind, "late_fee")));
    expect(fees).toHaveLength(1);
  },
  "escrow.refund": async (w) => {
    const refunds = await t.database.db
      .select()
      .from(ledgerTransactions)
      .where(and(eq(ledgerTransactions.taskId, w.taskId), eq(ledgerTransactions.kind, "refund")));
    expect(refunds).toHaveLength(1);
  },
  "declined.remember": async (w) => {
    const rows = await t.database.db.select().from(taskDeclinedProviders).where(eq(taskDeclinedProviders.taskId, w.taskId));
    expect(rows.map((r) => r.providerId)).toEqual([party(w.provider, "provider").id]);
  },
  "job_alerts.match": async (w) => expect(await noticeOf(party(w.alerted, "alerted provider").id, w.taskId, "task_alert")).toHaveLength(1),
  announce: async (w) => {
    const event = w.name === "post" || w.name === "post_request" || w.name === "book" ? "posted" : w.name;
    await vi.waitFor(() => expect(heard.some((u) => u.taskId === w.taskId && u.event === event)).toBe(true));
  },
  "board.add": async (w) => {
    expect(w.boardBefore).not.toContain(w.taskId);
    expect(await boardIds()).toContain(w.taskId);
  },
  "board.remove": async (w) => {
    expect(w.boardBefore).toContain(w.taskId);
    expect(await boardIds()).not.toContain(w.taskId);
  },
  "notify.poster_provider_withdrew": async (w) => expect(await noticeOf(w.poster.id, w.taskId, "provider_withdrew")).toHaveLength(1),
  "withdrawal.record": async (w) => {
    const rows = await t.database.db.select().from(taskWithdrawals).where(eq(taskWithdrawals.taskId, w.taskId));
    expect(rows.map((r) => ({ providerId: r.providerId, paid: r.paid }))).toEqual([{ providerId: party(w.provider, "provider").id, paid: w.name === "withdraw" }]);
  },
  "offers.accept": async (w) => {
    const [offer] = await t.database.db.select().from(taskOffers).where(and(eq(taskOffers.taskId, w.taskId), eq(taskOffers.status, "accepted")));
    expect(offer?.providerId).toBe(party(w.provider, "provider").id);
    expect((await taskRow(t, w.taskId)).budgetCents).toBe(offer?.priceCents);
  },
  // The provider who left holds a closed offer, and none of the task's offers reads as accepted.
  "offers.release": async (w) => {
    const offers = await t.database.db.select().from(taskOffers).where(eq(taskOffers.taskId, w.taskId));
    expect(offers.map((o) => [o.providerId, o.status])).toEqual([[party(w.provider, "provider").id, "closed"]]);
  },
  "notify.offers_decided": async (w) => expect(await noticeOf(party(w.provider, "provider").id, w.taskId, "offer_decided")).toHaveLength(1),
  "notify.provider_requested": async (w) => expect(await noticeOf(party(w.provider, "provider").id, w.taskId, "task_requested")).toHaveLength(1),
  "notify.poster_request_ended": async (w) => expect(await noticeOf(w.poster.id, w.taskId, "request_ended")).toHaveLength(1),
  "notify.provider_request_cancelled": async (w) => expect(await noticeOf(party(w.provider, "provider").id, w.taskId, "request_cancelled")).toHaveLength(1),
  // Time and turning up (docs/decisions/074-time-and-turning-up.md): the task's time on the provider's calendar.
  "calendar.book": async (w) => {
    const [booking] = await bookingsOf(w.taskId);
    expect(booking?.providerId).toBe(party(w.provider, "provider").id);
  },
  "calendar.free": async (w) => {
    expect((await taskRow(t, w.taskId)).scheduledDate, "a dated task, or there is nothing to free").not.toBeNull();
    expect(await bookingsOf(w.taskId)).toEqual([]);
  },
  "calendar.move": async (w) => {
    const [booking] = await bookingsOf(w.taskId);
    const start = (await taskRow(t, w.taskId)).scheduledDate;
    expect(booking?.during.slice(2, 21)).toBe(start?.toISOString().replace("T", " ").slice(0, 19));
  },
  "notify.provider_booked": async (w) => expect(await noticeOf(party(w.provider, "provider").id, w.taskId, "task_booked")).toHaveLength(1),
  "notify.time_proposed": async (w) => expect(await noticeOf(party(w.provider, "provider").id, w.taskId, "time_proposed")).toHaveLength(1),
  "notify.time_decided": async (w) => expect(await noticeOf(w.poster.id, w.taskId, "time_decided")).toHaveLength(1),
  "notify.poster_on_my_way": async (w) => expect(await noticeOf(w.poster.id, w.taskId, "provider_on_way")).toHaveLength(1),
  "no_show.record": async (w) => {
    const rows = await t.database.db.select().from(taskNoShows).where(eq(taskNoShows.taskId, w.taskId));
    expect(rows.map((r) => r.providerId)).toEqual([party(w.provider, "provider").id]);
  },
  "notify.provider_no_show": async (w) => expect(await noticeOf(party(w.provider, "provider").id, w.taskId, "provider_no_show")).toHaveLength(1),
  "notify.provider_paid": async (w) => expect(await noticeOf(party(w.provider, "provider").id, w.taskId, "payment_received")).toHaveLength(1),
};

function bookingsOf(taskId: string) {
  return t.database.db.select().from(providerBookings).where(eq(providerBookings.taskId, taskId));
}

/** A date two days ahead of the test clock: a dated task takes its time on its provider's calendar. */
const dated = () => ({ body: { scheduledDate: new Date(t.clock.now().getTime() + 2 * 86_400_000).toISOString() } });

/** A task that takes offers, claimed by accepting its one provider's offer; paid when asked. */
async function chosenByOffer(paid: boolean) {
  const { poster } = await taskAt(t, "open");
  const task = await postOffersTask(t, poster, dated());
  const provider = await createProvider(t);
  const offerId = await makeOffer(t, provider, task.id, { price: 42 });
  expect((await call(t, poster, { method: "POST", url: `/api/tasks/${task.id}/offers/${offerId}/accept`, payload: { price: 42 } })).statusCode).toBe(200);
  const claimed = await taskRow(t, task.id);
  return { task: paid ? await pay(t, poster, claimed) : claimed, poster, provider };
}

interface Scenario {
  row: TaskProcessName;
  label: string;
  proves: readonly TaskAction[];
  /** Brings a task to the row's `from` state, reads the board, performs the row; the walk to check. */
  run: () => Promise<Walk>;
}

/** Reads the board (keeping its answer), then performs. */
async function walk(name: TaskProcessName, parties: Omit<Walk, "name" | "boardBefore" | "taskId" | "noticesBefore">, taskId: string | null, perform: () => Promise<string | void>): Promise<Walk> {
  const boardBefore = await boardIds();
  const noticesBefore = new Set((await t.database.db.select({ id: notifications.id }).from(notifications)).map((n) => n.id));
  const performed = await perform();
  const id = taskId ?? performed;
  if (!id) throw new Error(`${name} gave no task`);
  return { ...parties, taskId: id, name, boardBefore, noticesBefore };
}

const SCENARIOS: Scenario[] = [
  {
    row: "post",
    label: "a task that matches a saved alert",
    proves: ["announce", "board.add", "job_alerts.match"],
    run: async () => {
      const alerted = await createProvider(t);
      const alert = { categories: [BASE_BODY.category], near: "21401", radiusMiles: 10, minBudget: null };
      expect((await call(t, alerted, { method: "PUT", url: "/api/alerts", payload: { alerts: [alert] } })).statusCode).toBe(200);
      const { poster } = await taskAt(t, "open");
      return walk("post", { poster, provider: null, alerted }, null, async () => (await postTask(t, poster, { body: { lat: 38.98, lon: -76.49 } })).id);
    },
  },
  {
    row: "claim",
    label: "an open task",
    proves: ["calendar.book", "notify.poster_claimed", "announce", "board.remove"],
    run: async () => {
      const { task, poster } = await taskAt(t, "open", dated());
      const provider = await createProvider(t);
      return walk("claim", { poster, provider, alerted: null }, task.id, async () => void expect(await transition(t, "claim", task.id, provider)).not.toBeNull());
    },
  },
  {
    row: "pay",
    label: "a claimed task",
    proves: ["announce", "notify.provider_paid"],
    run: async () => {
      const { task, poster, provider } = await taskAt(t, "claimed");
      return walk("pay", { poster, provider, alerted: null }, task.id, async () => void (await pay(t, poster, task)));
    },
  },
  {
    row: "start",
    label: "a paid task",
    proves: ["notify.poster_work_started", "announce"],
    run: async () => {
      const { task, poster, provider } = await taskAt(t, "paid");
      return walk("start", { poster, provider, alerted: null }, task.id, async () => void expect(await transition(t, "start", task.id, provider)).not.toBeNull());
    },
  },
  {
    row: "complete",
    label: "a paid task in progress",
    proves: ["notify.poster_work_completed", "escrow.hold", "calendar.free", "announce"],
    run: async () => {
      const { task, poster, provider } = await taskAt(t, "in_progress", dated());
      return walk("complete", { poster, provider, alerted: null }, task.id, async () => void expect(await transition(t, "complete", task.id, provider)).not.toBeNull());
    },
  },
  {
    row: "cancel",
    label: "an open task",
    proves: ["announce", "board.remove"],
    run: async () => {
      const { task, poster } = await taskAt(t, "open");
      return walk("cancel", { poster, provider: null, alerted: null }, task.id, async () => void expect(await transition(t, "cancel", task.id, poster)).not.toBeNull());
    },
  },
  {
    row: "cancel",
    label: "a paid claimed task",
    proves: ["notify.provider_cancelled", "escrow.refund", "announce"],
    run: async () => {
      const { task, poster, provider } = await taskAt(t, "paid");
      return walk("cancel", { poster, provider, alerted: null }, task.id, async () => void expect(await transition(t, "cancel", task.id, poster)).not.toBeNull());
    },
  },
  {
    row: "cancel",
    label: "a paid claimed task due within a day",
    proves: ["escrow.late_fee", "escrow.refund", "calendar.free"],
    run: async () => {
      const soon = new Date(t.clock.now().getTime() + 3 * 60 * 60 * 1000).toISOString();
      const { task, poster, provider } = await taskAt(t, "paid", { body: { scheduledDate: soon } });
      return walk("cancel", { poster, provider, alerted: null }, task.id, async () => void expect(await transition(t, "cancel", task.id, poster)).not.toBeNull());
    },
  },
  {
    row: "resolve_dispute",
    label: "a started task with a reported problem",
    proves: ["calendar.free", "announce"],
    run: async () => {
      const { task, poster, provider } = await taskAt(t, "in_progress", dated());
      await reportProblem(t, poster, task);
      const admin = await createUser(t, { role: "admin" });
      return walk("resolve_dispute", { poster, provider, alerted: null }, task.id, async () => {
        const payload = { refund: task.totalCents / 100, reason: "The provider never came." };
        expect((await call(t, admin, { method: "POST", url: `/api/admin/disputes/${task.id}/resolve`, payload })).statusCode).toBe(200);
      });
    },
  },
  {
    row: "expire",
    label: "an unpaid claim past its deadline",
    proves: ["calendar.free", "announce"],
    run: async () => {
      const { task, poster, provider } = await taskAt(t, "claimed", dated());
      return walk("expire", { poster, provider, alerted: null }, task.id, async () => void (await expire(t, task)));
    },
  },
  {
    row: "reactivate",
    label: "a task whose payment expired",
    proves: ["announce", "board.add"],
    run: async () => {
      const { task, poster, provider } = await taskAt(t, "payment_expired");
      return walk("reactivate", { poster, provider, alerted: null }, task.id, async () => void expect(await transition(t, "reactivate", task.id, poster)).not.toBeNull());
    },
  },
  {
    row: "reactivate",
    label: "a task chosen by an offer whose payment expired",
    proves: ["offers.release"],
    run: async () => {
      const { task, poster, provider } = await chosenByOffer(false);
      await expire(t, task);
      return walk("reactivate", { poster, provider, alerted: null }, task.id, async () => void expect(await transition(t, "reactivate", task.id, poster)).not.toBeNull());
    },
  },
  {
    row: "decline",
    label: "an unpaid claim",
    proves: ["declined.remember", "notify.provider_declined", "calendar.free", "announce", "board.add"],
    run: async () => {
      const { task, poster, provider } = await taskAt(t, "claimed", dated());
      return walk("decline", { poster, provider, alerted: null }, task.id, async () => {
        const res = await call(t, poster, { method: "PATCH", url: `/api/tasks/${task.id}/decline-provider` });
        expect(res.statusCode).toBe(200);
      });
    },
  },
  {
    row: "withdraw",
    label: "a paid claim",
    proves: ["withdrawal.record", "escrow.refund", "notify.poster_provider_withdrew", "calendar.free", "announce", "board.add"],
    run: async () => {
      const { task, poster, provider } = await taskAt(t, "paid", dated());
      return walk("withdraw", { poster, provider, alerted: null }, task.id, async () => void expect(await transition(t, "withdraw", task.id, provider)).not.toBeNull());
    },
  },
  {
    row: "withdraw",
    label: "a paid claim chosen by an offer",
    proves: ["offers.release"],
    run: async () => {
      const { task, poster, provider } = await chosenByOffer(true);
      return walk("withdraw", { poster, provider, alerted: null }, task.id, async () => void expect(await transition(t, "withdraw", task.id, provider)).not.toBeNull());
    },
  },
  {
    row: "release_claim",
    label: "an unpaid claim chosen by an offer",
    proves: ["offers.release"],
    run: async () => {
      const { task, poster, provider } = await chosenByOffer(false);
      return walk("release_claim", { poster, provider, alerted: null }, task.id, async () => {
        expect((await call(t, provider, { method: "PATCH", url: `/api/tasks/${task.id}/release-claim` })).statusCode).toBe(200);
      });
    },
  },
  {
    row: "release_claim",
    label: "an unpaid claim",
    proves: ["withdrawal.record", "notify.poster_provider_withdrew", "calendar.free", "announce", "board.add"],
    run: async () => {
      const { task, poster, provider } = await taskAt(t, "claimed", dated());
      return walk("release_claim", { poster, provider, alerted: null }, task.id, async () => {
        const res = await call(t, provider, { method: "PATCH", url: `/api/tasks/${task.id}/release-claim` });
        expect(res.statusCode).toBe(200);
      });
    },
  },
  {
    row: "remove",
    label: "an open task",
    proves: ["notify.parties_removed", "announce", "board.remove"],
    run: async () => {
      const { task, poster } = await taskAt(t, "open");
      const admin = await createUser(t, { role: "admin" });
      return walk("remove", { poster, provider: null, alerted: null }, task.id, async () => {
        const res = await call(t, admin, { method: "POST", url: `/api/admin/tasks/${task.id}/remove`, payload: { reason: "Selling prohibited items" } });
        expect(res.statusCode).toBe(200);
      });
    },
  },
  {
    row: "remove",
    label: "a paid claimed task",
    proves: ["escrow.refund", "calendar.free"],
    run: async () => {
      const { task, poster, provider } = await taskAt(t, "paid", dated());
      const admin = await createUser(t, { role: "admin" });
      return walk("remove", { poster, provider, alerted: null }, task.id, async () => {
        const res = await call(t, admin, { method: "POST", url: `/api/admin/tasks/${task.id}/remove`, payload: { reason: "Selling prohibited items" } });
        expect(res.statusCode).toBe(200);
      });
    },
  },
  {
    row: "release",
    label: "a paid task whose provider is suspended",
    proves: ["escrow.refund", "notify.poster_provider_released", "calendar.free", "announce", "board.add"],
    run: async () => {
      const { task, poster, provider } = await taskAt(t, "paid", dated());
      const admin = await createUser(t, { role: "admin" });
      return walk("release", { poster, provider, alerted: null }, task.id, async () => {
        const res = await call(t, admin, { method: "POST", url: `/api/admin/users/${provider.id}/suspend`, payload: { reason: "Fraudulent reviews" } });
        expect(res.statusCode).toBe(200);
      });
    },
  },
  {
    row: "release",
    label: "a paid task chosen by an offer whose provider is suspended",
    proves: ["offers.release"],
    run: async () => {
      const { task, poster, provider } = await chosenByOffer(true);
      const admin = await createUser(t, { role: "admin" });
      return walk("release", { poster, provider, alerted: null }, task.id, async () => {
        const res = await call(t, admin, { method: "POST", url: `/api/admin/users/${provider.id}/suspend`, payload: { reason: "Fraudulent reviews" } });
        expect(res.statusCode).toBe(200);
      });
    },
  },
  {
    row: "accept_offer",
    label: "an open task that takes offers",
    proves: ["offers.accept", "calendar.book", "notify.offers_decided", "announce", "board.remove"],
    run: async () => {
      const { poster } = await taskAt(t, "open");
      const task = await postOffersTask(t, poster, dated());
      const provider = await createProvider(t);
      const offerId = await makeOffer(t, provider, task.id, { price: 42 });
      return walk("accept_offer", { poster, provider, alerted: null }, task.id, async () => {
        const res = await call(t, poster, { method: "POST", url: `/api/tasks/${task.id}/offers/${offerId}/accept`, payload: { price: 42 } });
        expect(res.statusCode).toBe(200);
      });
    },
  },
  // Requesting a provider (docs/decisions/065-requesting-a-provider.md).
  {
    row: "post_request",
    label: "a task requested from one provider",
    proves: ["notify.provider_requested", "announce"],
    run: async () => {
      const { poster } = await taskAt(t, "open");
      const provider = await createProvider(t);
      return walk("post_request", { poster, provider, alerted: null }, null, async () => (await postRequestTask(t, poster, provider)).id);
    },
  },
  // The provider's accept and the poster's cancel: one PATCH by one party on a request still waiting.
  ...(
    [
      { row: "accept_request", label: "a requested task", proves: ["calendar.book", "notify.poster_claimed", "announce"], by: "provider", path: "accept-request" },
      {
        row: "cancel_request",
        label: "a requested task its poster cancels before the provider answers",
        proves: ["notify.provider_request_cancelled", "announce"],
        by: "poster",
        path: "cancel",
      },
    ] as const
  ).map(
    ({ row, label, proves, by, path }): Scenario => ({
      row,
      label,
      proves: [...proves],
      run: async () => {
        const { poster } = await taskAt(t, "open");
        const provider = await createProvider(t);
        const task = await postRequestTask(t, poster, provider, {}, dated());
        return walk(row, { poster, provider, alerted: null }, task.id, async () => {
          const actor = by === "poster" ? poster : provider;
          expect((await call(t, actor, { method: "PATCH", url: `/api/tasks/${task.id}/${path}` })).statusCode).toBe(200);
        });
      },
    }),
  ),
  ...(["decline_request", "lapse_request"] as const).map(
    (row): Scenario => ({
      row,
      label: "a requested task the poster opens to everyone then, matching a saved alert",
      proves: ["notify.poster_request_ended", "announce", "board.add", "job_alerts.match"],
      run: async () => {
        const alerted = await createProvider(t);
        const alert = { categories: [BASE_BODY.category], near: "21401", radiusMiles: 10, minBudget: null };
        expect((await call(t, alerted, { method: "PUT", url: "/api/alerts", payload: { alerts: [alert] } })).statusCode).toBe(200);
        const { poster } = await taskAt(t, "open");
        const provider = await createProvider(t);
        const task = await postRequestTask(t, poster, provider, { windowHours: 4 }, { body: { lat: 38.98, lon: -76.49 } });
        return walk(row, { poster, provider, alerted }, task.id, () => answerOrLapse(row, task.id, provider));
      },
    }),
  ),
  ...(["decline_request_cancel", "lapse_request_cancel"] as const).map(
    (row): Scenario => ({
      row,
      label: "a requested task the poster cancels then",
      proves: ["notify.poster_request_ended", "announce"],
      run: async () => {
        const { poster } = await taskAt(t, "open");
        const provider = await createProvider(t);
        const task = await postRequestTask(t, poster, provider, { windowHours: 4, fallback: "cancel" });
        return walk(row, { poster, provider, alerted: null }, task.id, () => answerOrLapse(row, task.id, provider));
      },
    }),
  ),
  // Time and turning up (docs/decisions/074-time-and-turning-up.md).
  {
    row: "book",
    label: "a free slot of a provider who takes instant bookings",
    proves: ["calendar.book", "notify.provider_booked", "announce"],
    run: async () => {
      const { poster } = await taskAt(t, "open");
      const provider = await createProvider(t);
      const day = [{ from: "09:00", to: "17:00" }];
      const week = { monday: day, tuesday: day, wednesday: day, thursday: day, friday: day, saturday: day, sunday: day };
      expect((await call(t, provider, { method: "PUT", url: "/api/calendar", payload: { timeZone: "America/New_York", weeklyHours: week, instantBooking: true } })).statusCode).toBe(200);
      const [slot] = (await call(t, poster, { url: `/api/providers/${provider.id}/slots` })).json<{ slots: { startsAt: string }[] }>().slots;
      return walk("book", { poster, provider, alerted: null }, null, async () => (await postRequestTask(t, poster, provider, { startsAt: slot?.startsAt }, { body: { estimatedHours: 1 } })).id);
    },
  },
  {
    row: "propose_time",
    label: "a claimed task whose poster proposes a new time",
    proves: ["notify.time_proposed", "announce"],
    run: async () => {
      const { task, poster, provider } = await taskAt(t, "claimed", dated());
      return walk("propose_time", { poster, provider, alerted: null }, task.id, () => proposeLater(poster, task.id));
    },
  },
  ...(["accept_time", "decline_time"] as const).map(
    (row): Scenario => ({
      row,
      label: "a new time the poster proposed, answered by the provider",
      proves: row === "accept_time" ? ["calendar.move", "notify.time_decided", "announce"] : ["notify.time_decided", "announce"],
      run: async () => {
        const { task, poster, provider } = await taskAt(t, "claimed", dated());
        await proposeLater(poster, task.id);
        return walk(row, { poster, provider, alerted: null }, task.id, async () => {
          expect((await call(t, provider, { method: "PATCH", url: `/api/tasks/${task.id}/${row.replace("_", "-")}` })).statusCode).toBe(200);
        });
      },
    }),
  ),
  {
    row: "on_my_way",
    label: "a paid task whose provider sets off",
    proves: ["notify.poster_on_my_way", "announce"],
    run: async () => {
      const { task, poster, provider } = await taskAt(t, "paid", dated());
      return walk("on_my_way", { poster, provider, alerted: null }, task.id, async () => {
        expect((await call(t, provider, { method: "POST", url: `/api/tasks/${task.id}/on-my-way`, payload: {} })).statusCode).toBe(200);
      });
    },
  },
  {
    row: "report_no_show",
    label: "a paid task not started 30 minutes after its start",
    proves: ["no_show.record", "escrow.refund", "calendar.free", "notify.provider_no_show", "announce"],
    run: async () => {
      const soon = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
      const { task, poster, provider } = await taskAt(t, "paid", { body: { scheduledDate: soon } });
      t.clock.advance(91 * 60_000);
      return walk("report_no_show", { poster, provider, alerted: null }, task.id, async () => {
        expect((await call(t, poster, { method: "PATCH", url: `/api/tasks/${task.id}/report-no-show` })).statusCode).toBe(200);
      });
    },
  },
];

/** The poster proposes to do the task a day later than booked. */
async function proposeLater(poster: TestUser, taskId: string): Promise<void> {
  const start = (await taskRow(t, taskId)).scheduledDate ?? t.clock.now();
  const startsAt = new Date(start.getTime() + 86_400_000).toISOString();
  expect((await call(t, poster, { method: "POST", url: `/api/tasks/${taskId}/propose-time`, payload: { startsAt } })).statusCode).toBe(200);
}

/** The requested provider declines, or the window passes and the scheduler's lapse job runs. */
async function answerOrLapse(row: TaskProcessName, taskId: string, provider: TestUser): Promise<void> {
  if (row.startsWith("decline")) {
    expect((await call(t, provider, { method: "PATCH", url: `/api/tasks/${taskId}/decline-request`, payload: {} })).statusCode).toBe(200);
  } else {
    t.clock.advance(4 * 3_600_000);
    await t.app.ctx.scheduler.runAll();
  }
  expect((await taskRow(t, taskId)).status).toBe(findProcessStep(row).to);
}

describe("every row of the task table", () => {
  it("is walked, and its scenarios together prove each of its actions", () => {
    for (const step of TASK_PROCESS) {
      const proved = new Set(SCENARIOS.filter((s) => s.row === step.name).flatMap((s) => s.proves));
      expect([...proved].sort(), step.name).toEqual([...step.actions].sort());
    }
  });

  it.each(SCENARIOS)("$row on $label leaves the mark of each action", async ({ run, proves }) => {
    const w = await run();
    for (const action of proves) await MARKS[action](w);
    // Every notice the transition sent is one its row declares (TASK_NOTICES), or one the money rows it
    // sets off declare (MONEY_NOTICES): no notice goes out beside the tables (decision 083).
    const declared = new Set<string>(
      [...findProcessStep(w.name).actions, ...Object.keys(MONEY_NOTICES)].flatMap((action) =>
        Object.hasOwn(DECLARED_NOTICES, action) ? DECLARED_NOTICES[action as NoticeAction].map((notice) => notice.template) : [],
      ),
    );
    const sent = (await t.database.db.select().from(notifications)).filter((n) => !w.noticesBefore.has(n.id));
    expect(sent.filter((n) => !declared.has(n.kind)).map((n) => `${n.kind}: ${n.title}`)).toEqual([]);
  });
});
