import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  APPROVAL_WINDOW_MS,
  LEDGER_KINDS,
  LIVE_PAYMENT_STATUSES,
  MONEY_RECORDS,
  MONEY_STATES,
  MONEY_TRANSITIONS,
  STUCK_PROCESSING_MS,
  applyMoneyTransition,
  evaluateMoneyTransition,
  findMoneyTransition,
  type LedgerKind,
  type MoneyRecord,
  type MoneyRecordState,
  type MoneyRequester,
  type MoneyState,
  type MoneyTransitionDefinition,
  type MoneyTransitionName,
} from "./money-lifecycle.js";
import { TASK_TRANSITION_NAMES } from "./task-lifecycle.js";

const NOW = new Date("2026-03-01T12:00:00.000Z");
const at = (ms: number) => new Date(NOW.getTime() + ms);

const ROWS: readonly MoneyTransitionDefinition[] = MONEY_TRANSITIONS;
const rowsOf = (record: MoneyRecord) => ROWS.filter((t) => t.record === record);

const REQUESTERS = {
  poster: { poster: true, admin: false },
  admin: { poster: false, admin: true },
  stranger: { poster: false, admin: false },
  provider: { poster: false, admin: false, provider: true },
  paymentSystem: "payment_system",
  timer: "timer",
  system: "system",
} as const satisfies Record<string, MoneyRequester>;
type RequesterKind = keyof typeof REQUESTERS;

/** The requester a row's actor stands for (a party: the poster, or the provider in ALLOWED). */
const REQUESTER_OF = { poster: "poster", admin: "admin", payment_system: "paymentSystem", timer: "timer", system: "system", party: "poster" } as const;
const allowedKinds = (actor: keyof typeof REQUESTER_OF): RequesterKind[] => (actor === "party" ? ["poster", "provider"] : [REQUESTER_OF[actor]]);
/** The ledger kinds a row's actions move. */
const ledgerOf = (t: MoneyTransitionDefinition): LedgerKind[] =>
  t.actions.filter((a) => a.startsWith("ledger.")).map((a) => a.slice("ledger.".length) as LedgerKind);

const evaluate = (t: MoneyTransitionDefinition, state: MoneyRecordState, requester: MoneyRequester, now = NOW) =>
  evaluateMoneyTransition(t.record, t.name as MoneyTransitionName<MoneyRecord>, state, requester, now);

describe("the money table", () => {
  it("names each transition once per record and moves only between the record's own states", () => {
    for (const record of MONEY_RECORDS) {
      const names = rowsOf(record).map((t) => t.name);
      expect(new Set(names).size, record).toBe(names.length);
    }
    for (const t of ROWS) {
      const states: readonly string[] = MONEY_STATES[t.record];
      expect(states, `${t.record}.${t.name} to`).toContain(t.to);
      for (const from of t.from ?? []) expect(states, `${t.record}.${t.name} from`).toContain(from);
    }
  });

  it("creates each record in one way and reaches every state from there", () => {
    for (const record of MONEY_RECORDS) {
      const creations = rowsOf(record).filter((t) => t.from === null);
      expect(creations, record).toHaveLength(1);
      const reached = new Set<string>(creations.map((t) => t.to));
      for (let grew = true; grew; ) {
        grew = false;
        for (const t of rowsOf(record)) {
          if (t.from?.some((s) => reached.has(s)) && !reached.has(t.to)) {
            reached.add(t.to);
            grew = true;
          }
        }
      }
      expect([...reached].sort(), record).toEqual([...MONEY_STATES[record]].sort());
    }
  });

  it("moves each kind of money in one transition (release: through two doors; the late fee is the task table's)", () => {
    for (const kind of LEDGER_KINDS) {
      const doors = { release: 2, late_fee: 0 } as Partial<Record<LedgerKind, number>>;
      expect(
        ROWS.filter((t) => ledgerOf(t).includes(kind)).map((t) => `${t.record}.${t.name}`),
        kind,
      ).toHaveLength(doors[kind] ?? 1);
    }
    // Release has two doors (the poster, the timer), both out of an unsettled hold; an admin's split is the dispute's.
    for (const t of ROWS.filter((row) => ledgerOf(row).includes("release"))) expect(t.record).toBe("escrow");
  });

  it("names a real transition in every trigger, and only the server reacts to them", () => {
    for (const t of ROWS) {
      if (t.actor === "system") expect(t.after?.length, `${t.record}.${t.name}`).toBeGreaterThan(0);
      for (const trigger of t.after ?? []) {
        const [kind, name] = trigger.split(":") as [string, string];
        if (kind === "task") expect(TASK_TRANSITION_NAMES).toContain(name);
        else expect(rowsOf(kind as MoneyRecord).map((row) => row.name), trigger).toContain(name);
      }
    }
  });

  it("tells people why: every person's transition has its refusal", () => {
    for (const t of ROWS.filter((row) => row.actor === "poster")) expect(t.notActor, `${t.record}.${t.name}`).toMatch(/^Only the poster/);
  });

  it("keeps a refunded payment out of the live ones and every other state in", () => {
    expect([...LIVE_PAYMENT_STATUSES, "refunded"].sort()).toEqual([...MONEY_STATES.payment].sort());
  });
});

describe("evaluateMoneyTransition", () => {
  const transition = fc.constantFrom(...ROWS);
  const requesterKind = fc.constantFrom(...(Object.keys(REQUESTERS) as RequesterKind[]));
  const offset = fc.integer({ min: -3 * APPROVAL_WINDOW_MS, max: 3 * APPROVAL_WINDOW_MS });
  const stateOf = (record: MoneyRecord) =>
    fc.record({
      status: fc.option(fc.constantFrom<MoneyState>(...MONEY_STATES[record]), { nil: null }),
      releaseAt: fc.option(offset.map(at), { nil: null }),
      updatedAt: fc.option(offset.map(at), { nil: null }),
      gateway: fc.constantFrom("sandbox", "stripe"),
    });
  const anyCase = transition.chain((t) => fc.tuple(fc.constant(t), stateOf(t.record), requesterKind));

  it("answers 403 to the wrong actor, then 409 to a wrong state or an unmet condition, and yes otherwise", () => {
    fc.assert(
      fc.property(anyCase, ([t, state, kind]) => {
        const result = evaluate(t, state, REQUESTERS[kind]);
        const rightActor = allowedKinds(t.actor).includes(kind);
        const rightState = t.from === null ? state.status === null : state.status !== null && t.from.includes(state.status);
        if (!rightActor) expect(result).toMatchObject({ ok: false, status: 403 });
        else if (!rightState) expect(result).toMatchObject({ ok: false, status: 409 });
        else expect(result.ok).toBe(t.requires.every(({ condition }) => conditionHolds(condition, state)));
        if (!result.ok) expect(result.message.length).toBeGreaterThan(0);
      }),
    );
  });

  it("gives a stranger the same answer whatever the record's state", () => {
    for (const t of ROWS.filter((row) => row.actor === "poster" || row.actor === "party")) {
      const answers = new Set(
        [null, ...MONEY_STATES[t.record]].map((status) => JSON.stringify(evaluate(t, { status: status as MoneyState | null }, REQUESTERS.stranger))),
      );
      expect(answers.size, `${t.record}.${t.name}`).toBe(1);
    }
  });

  it("refuses approval and disputes with the state's own reason", () => {
    const approve = findMoneyTransition("escrow", "approve");
    expect(evaluate(approve, { status: null }, REQUESTERS.poster)).toEqual({ ok: false, status: 409, message: "This task has no payment waiting for release" });
    expect(evaluate(approve, { status: "released" }, REQUESTERS.poster)).toMatchObject({ message: "The payment has already been released" });
    expect(evaluate(approve, { status: "refunded" }, REQUESTERS.poster)).toMatchObject({ message: "The payment has already been refunded" });
    expect(evaluate(approve, { status: "disputed" }, REQUESTERS.poster)).toMatchObject({ message: "A problem was reported; an admin will resolve it" });
    // A dispute freezes a held escrow whenever it is opened, even after the approval window ended.
    const freeze = findMoneyTransition("escrow", "freeze");
    expect(evaluate(freeze, { status: "holding", releaseAt: at(-1) }, "system")).toEqual({ ok: true });
    expect(evaluate(findMoneyTransition("escrow", "release_due"), { status: "holding", releaseAt: NOW }, "timer")).toEqual({ ok: true });
    // Either party opens a dispute, once at a time; only an admin resolves it.
    const open = findMoneyTransition("dispute", "open");
    expect(evaluate(open, { status: null }, REQUESTERS.provider)).toEqual({ ok: true });
    expect(evaluate(open, { status: "open" }, REQUESTERS.poster)).toMatchObject({ status: 409, message: /already reported/ });
    expect(evaluate(findMoneyTransition("dispute", "resolve"), { status: "open" }, REQUESTERS.poster)).toMatchObject({ status: 403 });
    expect(evaluate(findMoneyTransition("dispute", "resolve"), { status: null }, REQUESTERS.admin)).toMatchObject({
      message: "There is no open dispute for this task",
    });
  });

  it("times out only a sandbox payment processing for the whole stuck window", () => {
    const timeOut = findMoneyTransition("payment", "time_out");
    const processing = (ago: number, gateway = "sandbox") => ({ status: "processing" as const, updatedAt: at(-ago), gateway });
    expect(evaluate(timeOut, processing(STUCK_PROCESSING_MS - 1), "timer").ok).toBe(false);
    expect(evaluate(timeOut, processing(STUCK_PROCESSING_MS), "timer").ok).toBe(true);
    expect(evaluate(timeOut, processing(10 * STUCK_PROCESSING_MS, "stripe"), "timer").ok).toBe(false);
  });

  it("says a payment was already taken when it is confirmed again", () => {
    const confirm = findMoneyTransition("payment", "confirm");
    expect(evaluate(confirm, { status: "captured" }, REQUESTERS.poster)).toMatchObject({ status: 409, message: "This task has already been paid" });
    expect(evaluate(confirm, { status: "processing" }, REQUESTERS.poster)).toMatchObject({ status: 409, message: "This payment is already being processed" });
    expect(evaluate(confirm, { status: "failed" }, REQUESTERS.poster)).toEqual({ ok: true });
  });
});

function conditionHolds(condition: string, state: MoneyRecordState): boolean {
  const time = (v: Date | string | null | undefined) => (v === null || v === undefined ? null : new Date(v).getTime());
  const releaseAt = time(state.releaseAt);
  const updatedAt = time(state.updatedAt);
  switch (condition) {
    case "window_open":
      return releaseAt !== null && releaseAt > NOW.getTime();
    case "window_closed":
      return releaseAt !== null && releaseAt <= NOW.getTime();
    case "stuck":
      return state.gateway === "sandbox" && updatedAt !== null && updatedAt <= NOW.getTime() - STUCK_PROCESSING_MS;
    default:
      throw new Error(`no test meaning for ${condition}`);
  }
}

describe("walks through the table", () => {
  /** Each step: the transition chosen among those allowed now (by index), and time moving on. */
  const walk = fc.tuple(
    fc.constantFrom(...MONEY_RECORDS),
    fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 2 * APPROVAL_WINDOW_MS })), { maxLength: 12 }),
  );

  /** Plays a walk on one record; returns the path and the money actions it performed. */
  function play(record: MoneyRecord, steps: [number, number][]) {
    let nowMs = NOW.getTime();
    let state: MoneyRecordState = { status: null, gateway: "sandbox" };
    const actions: LedgerKind[] = [];
    const path: string[] = [];
    for (const [pick, wait] of steps) {
      const now = new Date(nowMs);
      const allowed = rowsOf(record).filter((t) => evaluate(t, state, REQUESTERS[REQUESTER_OF[t.actor]], now).ok);
      const t = allowed[pick % Math.max(allowed.length, 1)];
      if (t) {
        const moved = applyMoneyTransition(record, t.name as MoneyTransitionName<MoneyRecord>, state, REQUESTERS[REQUESTER_OF[t.actor]], now);
        if (!moved.ok) throw new Error(`${t.name} was allowed and then refused`);
        expect(t.from === null ? state.status === null : t.from.includes(state.status as never), `${record}: ${t.name} from ${state.status}`).toBe(true);
        state = { ...moved.state, updatedAt: now };
        // What the server writes beside the status: the hold's due date, from the approval window.
        if (record === "escrow" && t.name === "hold") state.releaseAt = new Date(nowMs + (wait % 2 === 0 ? APPROVAL_WINDOW_MS : 0));
        actions.push(...ledgerOf(t));
        path.push(t.name);
      }
      nowMs += wait;
    }
    return { state, actions, path };
  }

  it("never moves the same money twice, and refunds only what was captured", () => {
    fc.assert(
      fc.property(walk, ([record, steps]) => {
        const { actions, path } = play(record, steps);
        const count = (action: LedgerKind) => actions.filter((a) => a === action).length;
        for (const action of LEDGER_KINDS) expect(count(action), `${record}: ${path.join(" → ")}`).toBeLessThanOrEqual(1);
        if (record === "escrow") expect(count("release") + count("refund"), path.join(" → ")).toBeLessThanOrEqual(1);
        if (count("refund") === 1) expect(actions.indexOf("capture"), path.join(" → ")).toBe(actions.indexOf("refund") - 1);
      }),
    );
  });

  it("ends a settled escrow in released or refunded and moves it no further", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 2 * APPROVAL_WINDOW_MS })), { maxLength: 12 }), (steps) => {
        const { state, actions, path } = play("escrow", steps);
        const settled = state.status === "released" || state.status === "refunded";
        // A dispute's resolution releases through its own "ledger.split" (the dispute's row).
        expect(actions.includes("release") || path.includes("resolve_release")).toBe(state.status === "released");
        if (settled) {
          const next = rowsOf("escrow").filter((t) => evaluate(t, state, REQUESTERS[REQUESTER_OF[t.actor]], at(10 * APPROVAL_WINDOW_MS)).ok);
          expect(next).toEqual([]);
        }
      }),
    );
  });
});
