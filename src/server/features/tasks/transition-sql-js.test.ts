import { inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { TASK_STATUSES } from "../../../shared/constants.js";
import { applyTransition, TASK_TRANSITIONS, type SystemActor, type TaskViewer } from "../../../shared/task-lifecycle.js";
import { tasks } from "../../db/schema/tasks.js";
import { users } from "../../db/schema/users.js";
import type { TaskRow } from "../../transition-actions.js";
import { useTestApp, type TestUser } from "../../../../test/create-test-app.js";
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
const template = await postTask(t, poster);

async function sessionUserOf(user: TestUser) {
  const [row] = await t.database.db.select().from(users).where(inArray(users.id, [user.id]));
  if (!row) throw new Error("user vanished");
  return { ...row, sessionId: "", firstFactor: null, secondFactor: null, provenAt: null };
}

interface Actor {
  label: string;
  sql: TransitionActorInput;
  js: TaskViewer | SystemActor;
}

const person = async (label: string, user: TestUser, verified: boolean): Promise<Actor> => ({
  label,
  sql: { kind: "person", user: await sessionUserOf(user) },
  js: { id: user.id, role: verified ? "provider" : "user", isAdmin: false, providerVerified: verified },
});
const system = (actor: SystemActor): Actor => ({ label: actor, sql: { kind: "system", actor }, js: actor });

const ACTORS: Actor[] = [
  await person("poster", poster, false),
  await person("assigned provider", assigned, true),
  await person("another verified provider", stranger, true),
  await person("an unverified person", unverified, false),
  system("timer"),
  system("payment_system"),
];

type State = Pick<TaskRow, "status" | "providerId" | "paymentCapturedAt" | "paymentDeadline">;

/** Every status, with and without a provider, paid or not, and a payment deadline absent, passed, just reached or ahead. */
const STATES: State[] = TASK_STATUSES.flatMap((status) =>
  [null, assigned.id].flatMap((providerId) =>
    [null, new Date(now.getTime() - 5 * MINUTE)].flatMap((paymentCapturedAt) =>
      [null, new Date(now.getTime() - MINUTE), now, new Date(now.getTime() + MINUTE)].map((paymentDeadline) => ({ status, providerId, paymentCapturedAt, paymentDeadline })),
    ),
  ),
);

const pick = ({ status, providerId, paymentCapturedAt, paymentDeadline }: State): State => ({ status, providerId, paymentCapturedAt, paymentDeadline });

describe("the task table's SQL and JS agree", () => {
  it.each(TASK_TRANSITIONS.map((row) => [row.name, row] as const))("%s: for every actor and state, who may act and what follows", async (_name, row) => {
    const cases = STATES.flatMap((state) => ACTORS.map((actor) => ({ state, actor })));
    const { id: _id, ...copy } = template;
    const inserted = await t.database.db
      .insert(tasks)
      .values(cases.map(({ state }) => ({ ...copy, ...state })))
      .returning({ id: tasks.id });
    let allowed = 0;
    const outcomes = await Promise.all(
      cases.map(async ({ state, actor }, i) => {
        const taskId = inserted[i]?.id;
        if (!taskId) throw new Error("a case's task was not inserted");
        const js = applyTransition(row.name, { ...template, ...state }, actor.js, now, t.env.PAYMENT_WINDOW_MINUTES);
        let moved: TaskRow | null;
        try {
          moved = await updateByTransition(t.app.ctx, row.name, taskId, actor.sql, now);
        } catch (error) {
          // A row whose effect assigns the actor cannot be written for a system actor at all.
          if (!(error instanceof Error && error.message === "Only a person can be assigned as provider")) throw error;
          moved = null;
        }
        if (js.ok) allowed += 1;
        const where = `${actor.label} on ${JSON.stringify(state)}`;
        return { where, js: js.ok ? pick(js.task) : null, sql: moved ? pick(moved) : null };
      }),
    );
    for (const outcome of outcomes) expect(outcome.sql, outcome.where).toEqual(outcome.js);
    // Someone may perform every row in some state, so the comparison is not one of refusals only.
    expect(allowed).toBeGreaterThan(0);
  });
});
