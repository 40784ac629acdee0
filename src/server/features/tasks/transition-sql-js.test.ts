import { inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { TASK_STATUSES } from "../../../shared/constants.js";
import { applyEffects, applyTransition, evaluateTransition, TASK_TRANSITIONS, type SystemActor, type TaskViewer } from "../../../shared/task-lifecycle.js";
import { taskOffers } from "../../db/schema/offers.js";
import { tasks } from "../../db/schema/tasks.js";
import { users } from "../../db/schema/users.js";
import { isAdminSession } from "../../policy.js";
import type { TaskRow } from "../../transition-actions.js";
import { createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { createPoster, createProvider, postTask } from "../../../../test/fixtures/factory.js";
import type { TransitionActorInput } from "./repository.js";
import { updateByTransition } from "./transition-statements.js";

// The task table's rules exist twice: as SQL (transition-statements.ts generates each row's
// conditional UPDATE: actor predicate, from-states, conditions, effects) and as JS in the shared
// table (evaluateTransition and applyEffects, which the web reads for its buttons). For every row
// of the table, every kind of actor and every task state that matters to a rule, both must agree
// on who may act and on the status, provider, payment deadline and capture time that follow
// (docs/decisions/045-transitions-name-their-actions.md). Rows added to the table are walked too.

const t = await useTestApp();
const now = t.clock.now();
const MINUTE = 60_000;

const poster = await createPoster(t);
const assigned = await createProvider(t);
const stranger = await createProvider(t);
const unverified = await createPoster(t);
const admin = await createUser(t, { role: "admin" });
const template = await postTask(t, poster);

/** The person's session, signed in with the password and `secondFactor` (createUser gives admins an app). */
async function sessionUserOf(user: TestUser, secondFactor: "totp" | null) {
  const [row] = await t.database.db.select().from(users).where(inArray(users.id, [user.id]));
  if (!row) throw new Error("user vanished");
  return { ...row, sessionId: "", firstFactor: "password", secondFactor, provenAt: null };
}

interface Actor {
  label: string;
  sql: TransitionActorInput;
  js: TaskViewer | SystemActor;
}

/** Both sides see the person through the policy (src/server/policy.ts): admin powers need two factors. */
const person = async (label: string, user: TestUser, verified: boolean, secondFactor: "totp" | null = null): Promise<Actor> => {
  const session = await sessionUserOf(user, secondFactor);
  return { label, sql: { kind: "person", user: session }, js: { id: user.id, isAdmin: isAdminSession(session), providerVerified: verified } };
};
const system = (actor: SystemActor): Actor => ({ label: actor, sql: { kind: "system", actor }, js: actor });

const ACTORS: Actor[] = [
  await person("poster", poster, false),
  await person("assigned provider", assigned, true),
  await person("another verified provider", stranger, true),
  await person("an unverified person", unverified, false),
  await person("an admin", admin, false, "totp"),
  // Signed in with the password alone: no admin rows, in SQL as in the table (decision 068).
  await person("an admin on one factor", admin, false, null),
  system("timer"),
  system("payment_system"),
];

type State = Pick<
  TaskRow,
  "status" | "hiringMode" | "providerId" | "paymentCapturedAt" | "paymentDeadline" | "requestedProviderId" | "requestExpiresAt" | "requestFallback" | "scheduledDate" | "proposedStartAt" | "proposedById"
>;

/**
 * Time and turning up (decision 074): a claimed task undated, or booked 31 minutes ago (its provider
 * late) with a new time its poster proposed. Other statuses carry none.
 */
const timesOf = (status: State["status"]): Pick<State, "scheduledDate" | "proposedStartAt" | "proposedById">[] =>
  status !== "claimed"
    ? [{ scheduledDate: null, proposedStartAt: null, proposedById: null }]
    : [
        { scheduledDate: null, proposedStartAt: null, proposedById: null },
        { scheduledDate: new Date(now.getTime() - 31 * MINUTE), proposedStartAt: new Date(now.getTime() + 24 * 60 * MINUTE), proposedById: poster.id },
      ];
/** What a proposal carries (propose_time). */
const INPUT = { proposedStartAt: new Date(now.getTime() + 48 * 60 * MINUTE) };

const NO_REQUEST = { requestedProviderId: null, requestExpiresAt: null, requestFallback: null } as const;

/**
 * A requested task's request (decision 065): from the assigned provider, its window ahead or
 * passed, falling back to open or to cancelled. A claimed task may have been requested too: from
 * its provider (the request accepted: a provider the poster chose, whom Decline is not for) or from
 * another (declined, then claimed by this one). Other statuses carry none.
 */
const requestsOf = (status: State["status"]): Pick<State, "requestedProviderId" | "requestExpiresAt" | "requestFallback">[] =>
  status === "claimed"
    ? [NO_REQUEST, ...[assigned.id, stranger.id].map((requestedProviderId) => ({ requestedProviderId, requestExpiresAt: new Date(now.getTime() - MINUTE), requestFallback: "open" as const }))]
    : status !== "requested"
      ? [NO_REQUEST]
      : [new Date(now.getTime() + MINUTE), new Date(now.getTime() - MINUTE)].flatMap((requestExpiresAt) =>
          (["open", "cancel"] as const).map((requestFallback) => ({ requestedProviderId: assigned.id, requestExpiresAt, requestFallback })),
        );

/**
 * Every status, either way of finding a provider, with and without a provider, paid or not, a
 * payment deadline absent, passed, just reached or ahead, and a requested task's request.
 */
const STATES: State[] = TASK_STATUSES.flatMap((status) =>
  (["first_to_claim", "offers"] as const).flatMap((hiringMode) =>
    [null, assigned.id].flatMap((providerId) =>
      [null, new Date(now.getTime() - 5 * MINUTE)].flatMap((paymentCapturedAt) =>
        [null, new Date(now.getTime() - MINUTE), now, new Date(now.getTime() + MINUTE)].flatMap((paymentDeadline) =>
          requestsOf(status).flatMap((request) => timesOf(status).map((times) => ({ status, hiringMode, providerId, paymentCapturedAt, paymentDeadline, ...request, ...times }))),
        ),
      ),
    ),
  ),
);

const pick = ({ status, hiringMode, providerId, paymentCapturedAt, paymentDeadline, requestedProviderId, requestExpiresAt, requestFallback, scheduledDate, proposedStartAt, proposedById }: State): State => ({
  status,
  hiringMode,
  providerId,
  paymentCapturedAt,
  paymentDeadline,
  requestedProviderId,
  requestExpiresAt,
  requestFallback,
  scheduledDate,
  proposedStartAt,
  proposedById,
});

/**
 * The JS side of a row. The provider of an accepted offer is a row of the offers table, which only
 * the server's UPDATE reads (applyEffects refuses it): there the JS decides who may act, and the
 * offer made on each case's task by `stranger` is who the task must be assigned to.
 */
function jsOutcome(row: (typeof TASK_TRANSITIONS)[number], state: State, actor: Actor): State | null {
  const task = { ...template, ...state };
  if (!takesOffer(row)) {
    const js = applyTransition(row.name, task, actor.js, now, t.env.PAYMENT_WINDOW_MINUTES, INPUT);
    return js.ok ? pick(js.task) : null;
  }
  if (!evaluateTransition(row.name, task, actor.js, now).ok) return null;
  const rest = row.effects.filter((effect) => effect !== "assign_offer_provider");
  const moved = applyEffects(task, rest, actor.js, now, t.env.PAYMENT_WINDOW_MINUTES);
  return pick({ ...moved, status: row.to, providerId: stranger.id });
}

const takesOffer = (row: (typeof TASK_TRANSITIONS)[number]) => (row.effects as readonly string[]).includes("assign_offer_provider");

describe("the task table's SQL and JS agree", () => {
  it.each(TASK_TRANSITIONS.map((row) => [row.name, row] as const))("%s: for every actor and state, who may act and what follows", async (_name, row) => {
    const cases = STATES.flatMap((state) => ACTORS.map((actor) => ({ state, actor })));
    const { id: _id, ...copy } = template;
    // In batches: one INSERT carries at most 65,535 parameters, and every case is a row of ~45 columns.
    const inserted: { id: string }[] = [];
    for (let i = 0; i < cases.length; i += 1_000) {
      const batch = cases.slice(i, i + 1_000).map(({ state }) => ({ ...copy, ...state }));
      inserted.push(...(await t.database.db.insert(tasks).values(batch).returning({ id: tasks.id })));
    }
    // An open offer on every case's task, for the row that accepts one.
    const offers = takesOffer(row)
      ? await t.database.db
          .insert(taskOffers)
          .values(inserted.map(({ id }) => ({ taskId: id, providerId: stranger.id, priceCents: 4200, message: "I can do it", availability: "Tomorrow", createdAt: now, updatedAt: now })))
          .returning({ id: taskOffers.id })
      : [];
    let allowed = 0;
    // A few hundred UPDATEs at a time: thousands at once queue for the pool's connections past its
    // connect timeout on a busy machine.
    const outcome = async ({ state, actor }: (typeof cases)[number], i: number) => {
      const taskId = inserted[i]?.id;
      if (!taskId) throw new Error("a case's task was not inserted");
      const js = jsOutcome(row, state, actor);
      let moved: TaskRow | null;
      try {
        moved = await updateByTransition(t.app.ctx, row.name, taskId, actor.sql, now, t.app.ctx.db, offers[i]?.id ?? null, INPUT);
      } catch (error) {
        // A row whose effect assigns the actor cannot be written for a system actor at all.
        if (!(error instanceof Error && error.message === "Only a person can be assigned as provider")) throw error;
        moved = null;
      }
      if (js) allowed += 1;
      const where = `${actor.label} on ${JSON.stringify(state)}`;
      return { where, js, sql: moved ? pick(moved) : null };
    };
    const outcomes: Awaited<ReturnType<typeof outcome>>[] = [];
    for (let i = 0; i < cases.length; i += 200) outcomes.push(...(await Promise.all(cases.slice(i, i + 200).map((c, j) => outcome(c, i + j)))));
    for (const outcome of outcomes) expect(outcome.sql, outcome.where).toEqual(outcome.js);
    // Someone may perform every row in some state, so the comparison is not one of refusals only.
    expect(allowed).toBeGreaterThan(0);
  });
});
