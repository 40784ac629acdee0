import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TaskStatus } from "./constants.js";
import { disputeSplit, lateCancellationFeeCents, lineItemsOf, priceTask, type TaskLineItems } from "./money.js";
import { earningWords, statementWords, type StatementViewer } from "./statement-words.js";
import {
  LEDGER_ACCOUNTS as A,
  providerEarning,
  REFUND_REASONS,
  statementTotals,
  taskStatement,
  type LedgerFacts,
  type RefundReason,
  type StatementContext,
} from "./task-statement.js";

// One account of each task's money (docs/decisions/073-one-account-of-each-tasks-money.md): the
// statement of a task's ledger transactions, and its words for each viewer. The postings here are
// the ledger's own (payments/repository.ts, LEDGER_OF); the server's property test walks the real ones.

const TASK = "00000000-0000-4000-8000-0000000000aa";
const MARIA = "00000000-0000-4000-8000-0000000000b1";
const SAM = "00000000-0000-4000-8000-0000000000b2";

let clock = Date.parse("2026-11-24T10:00:00Z");
let serial = 0;
function tx(kind: LedgerFacts["kind"], entries: [string, number][], memo: string | null = null, sameMoment = false): LedgerFacts {
  if (!sameMoment) clock += 60_000;
  serial += 1;
  return { id: `00000000-0000-4000-8000-${String(serial).padStart(12, "0")}`, kind, at: new Date(clock).toISOString(), memo, entries: entries.map(([account, amountCents]) => ({ account, amountCents })) };
}

const capture = (cents: number) => tx("capture", [[A.posterPayments, -cents], [A.escrow(TASK), cents]]);
const refund = (cents: number, reason: RefundReason | null, sameMoment = false) => tx("refund", [[A.escrow(TASK), -cents], [A.refunds, cents]], reason, sameMoment);
const lateFee = (cents: number, provider: string) => tx("late_fee", [[A.escrow(TASK), -cents], [A.providerBalance(provider), cents]]);
const release = (held: number, share: number, provider: string) =>
  tx("release", [[A.escrow(TASK), -held], [A.providerBalance(provider), share], [A.revenue, held - share]]);
const split = (held: number, back: number, share: number, provider: string) =>
  tx("split", [[A.escrow(TASK), -held], [A.refunds, back], [A.providerBalance(provider), share], [A.revenue, held - back - share]].filter(([, c]) => c !== 0) as [string, number][]);
const guarantee = (cents: number) => tx("guarantee", [[A.guarantee, -cents], [A.refunds, cents]]);
const recovery = (cents: number, provider: string) => tx("guarantee", [[A.providerBalance(provider), -cents], [A.guarantee, cents]], null, true);
const tip = (cents: number, provider: string) => tx("tip", [[A.posterPayments, -cents], [A.providerBalance(provider), cents]]);

const context = (status: TaskStatus, providerId: string | null, extra: Partial<StatementContext> = {}): StatementContext => ({ status, providerId, hold: null, disputeOpen: false, ...extra });
const names = { providerName: (id: string | null) => (id === MARIA ? "Maria G." : id === SAM ? "Sam P." : "the provider") };

// The walk's $36 task: $39.38 paid, $30.60 the provider's share.
const ITEMS = lineItemsOf(priceTask(3600, "standard"));

describe("the issue's partial refund, told the same to everyone", () => {
  // $39.38 held; an admin refunds $15.00: the provider gets floor($30.60 × $24.38 / $39.38) = $18.94, Errandly $5.44.
  const statement = taskStatement(TASK, ITEMS, [capture(3938), split(3938, 1500, 1894, MARIA)], context("cancelled", MARIA));

  it("has one line per movement and totals that add up to what was paid", () => {
    expect(statement.lines.map((l) => [l.kind, l.cents])).toEqual([
      ["payment", 3938],
      ["dispute_refund", 1500],
      ["dispute_share", 1894],
      ["commission", 544],
    ]);
    const totals = statementTotals(statement);
    expect(totals).toMatchObject({ paymentsCents: 3938, refundedCents: 1500, platformCents: 544, heldCents: 0 });
    expect(totals.providers.get(MARIA)).toBe(1894);
  });

  it("tells the poster it was partly refunded, what it cost them and the rule that split it", () => {
    const words = statementWords(statement, { role: "poster" }, names);
    expect(words.badge).toEqual({ label: "Partly refunded", tone: "secondary" });
    expect(words.headline).toBe("An admin resolved the reported problem: $15.00 was refunded to you and Maria G. received $18.94.");
    expect(words.summary).toContain("In all you paid $39.38 and were refunded $15.00: this task cost you $24.38.");
    expect(words.rule).toBe(
      "How the split was worked out: of the $39.38 held, $15.00 went back and $24.38 was released. A full release pays Maria G. $30.60, " +
        "so of a part Maria G. receives the same proportion, rounded down to the cent: $30.60 × $24.38 ÷ $39.38 = $18.94. Errandly keeps the other $5.44.",
    );
    expect(words.closedLine).toBe("An admin settled this task, so the chat is closed. An admin resolved the reported problem: $15.00 was refunded to you and Maria G. received $18.94.");
    expect(words.totals).toEqual([
      { label: "You paid", cents: 3938 },
      { label: "Refunded to you", cents: 1500 },
      { label: "Your cost", cents: 2438 },
    ]);
  });

  it("tells the provider what they received, never that the task pays nothing", () => {
    const words = statementWords(statement, { role: "provider", id: MARIA });
    expect(words.badge?.label).toBe("Settled by admin");
    expect(words.headline).toBe("An admin resolved the reported problem: $15.00 was refunded to the poster and you received $18.94.");
    expect(JSON.stringify(words)).not.toMatch(/pays (you )?nothing|Nothing will be paid|was cancelled/);
    expect(words.totals).toEqual([{ label: "You received", cents: 1894 }]);
    expect(providerEarning(statement, MARIA)).toMatchObject({ status: "settled", earnedCents: 1894, moved: true, refundedToPosterCents: 1500 });
  });

  it("shows an admin every part: the poster's cost, the provider's and Errandly's", () => {
    const words = statementWords(statement, { role: "admin" }, names);
    expect(words.totals).toEqual([
      { label: "The poster paid", cents: 3938 },
      { label: "Refunded to the poster", cents: 1500 },
      { label: "The poster's cost", cents: 2438 },
      { label: "Providers received", cents: 1894 },
      { label: "Errandly kept", cents: 544 },
    ]);
  });
});

describe("the issue's late cancellation after a withdrawal", () => {
  // $25 task, $27.50 paid twice: Maria withdrew (refunded in full), Sam claimed, the poster paid again
  // and cancelled within a day: $5.00 to Sam, $22.50 back.
  const items = lineItemsOf(priceTask(2500, "standard"));
  const fee = lateCancellationFeeCents(2500, 2750);
  const statement = taskStatement(
    TASK,
    items,
    [capture(2750), refund(2750, "withdraw"), capture(2750), lateFee(fee, SAM), refund(2750 - fee, "cancel", true)],
    context("cancelled", SAM),
  );

  it("gives the poster every payment, the fee and each refund with its reason, and the net cost", () => {
    const words = statementWords(statement, { role: "poster" }, names);
    expect(words.lines.map((l) => [l.label, l.cents])).toEqual([
      ["You paid", 2750],
      ["Refunded to you because the provider withdrew", 2750],
      ["You paid", 2750],
      ["Late-cancellation fee to Sam P.", 500],
      ["Refunded to you because you cancelled the task", 2250],
    ]);
    expect(words.badge?.label).toBe("Partly refunded");
    expect(words.headline).toBe("You cancelled less than 24 hours before the task: $5.00 went to Sam P. as a late-cancellation fee and $22.50 was refunded to your card.");
    expect(words.summary).toContain("In all you paid $55.00 and were refunded $50.00: this task cost you $5.00.");
    // No "Refunded $50.00" beside a $27.50 total without the fee between them.
    expect(words.totals).toEqual([
      { label: "You paid", cents: 5500 },
      { label: "Refunded to you", cents: 5000 },
      { label: "Your cost", cents: 500 },
    ]);
  });

  it("gives the second provider their fee, and not the refund of the provider before them", () => {
    const words = statementWords(statement, { role: "provider", id: SAM });
    expect(words.badge?.label).toBe("Late-cancellation fee");
    expect(words.headline).toBe("The poster cancelled less than 24 hours before the task: $5.00 went to you as a late-cancellation fee and $22.50 was refunded to the poster.");
    expect(words.lines.map((l) => l.label)).not.toContain("Refunded to the poster because the provider withdrew");
    expect(words.closedLine).toContain("you as a late-cancellation fee");
    expect(JSON.stringify(words)).not.toMatch(/pays (you )?nothing/);
    const earning = providerEarning(statement, SAM);
    expect(earning).toMatchObject({ status: "late_fee", earnedCents: 500, moved: true });
    expect(earning && earningWords(earning)).toMatchObject({ status: "Late-cancellation fee", amountLabel: "You earned" });
    expect(providerEarning(statement, MARIA)).toBeNull();
  });
});

describe("other accounts", () => {
  it("says a cancelled task's refund pays the provider nothing only when nothing reached them", () => {
    const statement = taskStatement(TASK, ITEMS, [capture(3938), refund(3938, "cancel")], context("cancelled", MARIA));
    const words = statementWords(statement, { role: "provider", id: MARIA });
    expect(words.headline).toBe("$39.38 was refunded to the poster because the poster cancelled the task. This task pays you nothing.");
    expect(statementWords(statement, { role: "poster" }).badge?.label).toBe("Refunded");
  });

  it("shows a refund recovered from the provider after release as taken back, not a release at the full amount", () => {
    const statement = taskStatement(TASK, ITEMS, [capture(3938), release(3938, 3060, MARIA), guarantee(2000), recovery(2000, MARIA)], context("completed", MARIA));
    expect(providerEarning(statement, MARIA)).toMatchObject({ status: "recovered", earnedCents: 1060, recoveredCents: 2000 });
    expect(statementWords(statement, { role: "provider", id: MARIA }).headline).toBe(
      "An admin refunded $20.00 to the poster from Errandly's guarantee. $20.00 of that refund was taken back from your balance, so it comes out of your next payouts.",
    );
    expect(statementTotals(statement).platformCents).toBe(3938 - 3060);
  });

  it("holds: the poster's money in escrow until the work is done, the share to come for the provider", () => {
    const statement = taskStatement(TASK, ITEMS, [capture(3938)], context("claimed", MARIA));
    expect(statementWords(statement, { role: "poster" }).badge).toEqual({ label: "Paid · held in escrow", tone: "warning" });
    const words = statementWords(statement, { role: "provider", id: MARIA });
    expect(words.headline).toBe("The poster paid $39.38, held in escrow: you earn $30.60 once the work is done.");
    expect(words.totals).toEqual([{ label: "You earn", cents: 3060 }]);
    expect(earningWords(providerEarning(statement, MARIA) ?? fail()).amountLabel).toBe("You earn");
  });

  it("tells the offerer who was not chosen only that, with the chat's closed line", () => {
    const words = statementWords(taskStatement(TASK, ITEMS, [capture(3938)], context("claimed", MARIA)), { role: "passed_over" });
    expect(words).toMatchObject({ badge: { label: "Another offer was chosen" }, lines: [], totals: [] });
    expect(words.closedLine).toContain("Another offer was chosen");
    expect(JSON.stringify(words)).not.toMatch(/You'll earn|held in escrow|permission/);
  });
});

function fail(): never {
  throw new Error("no earning");
}

// Random histories of one task's money in the ledger's own postings: payments, withdrawals and
// cancellations (late or not), releases, splits at any amount, guarantee refunds with or without
// recovery, tips.
const step: fc.Arbitrary<Step> = fc.record({
  end: fc.constantFrom("refund" as const, "late" as const, "release" as const, "split" as const, "open" as const),
  reason: fc.constantFrom(...REFUND_REASONS),
  part: fc.double({ min: 0, max: 1, noNaN: true }),
  guarantee: fc.double({ min: 0, max: 1, noNaN: true }),
  recover: fc.boolean(),
  tipCents: fc.integer({ min: 0, max: 3000 }),
  provider: fc.constantFrom(MARIA, SAM),
});

type Step = { end: "refund" | "late" | "release" | "split" | "open"; reason: RefundReason; part: number; guarantee: number; recover: boolean; tipCents: number; provider: string };

function history(items: TaskLineItems, steps: readonly Step[]) {
  const transactions: LedgerFacts[] = [];
  let providerId: string | null = null;
  let status: TaskStatus = "open";
  for (const s of steps) {
    const held = items.totalCents;
    providerId = s.provider;
    transactions.push(capture(held));
    if (s.end === "open") {
      status = "claimed";
      break;
    }
    if (s.end === "refund") {
      transactions.push(refund(held, s.reason));
      status = s.reason === "cancel" || s.reason === "remove" ? "cancelled" : "open";
      if (status === "cancelled") break;
      continue;
    }
    if (s.end === "late") {
      const fee = lateCancellationFeeCents(items.budgetCents, held);
      transactions.push(lateFee(fee, s.provider), refund(held - fee, "cancel", true));
      status = "cancelled";
      break;
    }
    let paidBack = 0;
    if (s.end === "split") {
      const back = Math.floor(held * s.part);
      const cut = disputeSplit(items, held, back);
      transactions.push(split(held, back, cut.providerShareCents, s.provider));
      paidBack = back;
      status = "cancelled";
    } else {
      transactions.push(release(held, items.providerShareCents, s.provider));
      status = "completed";
    }
    if (s.tipCents > 0) transactions.push(tip(s.tipCents, s.provider));
    const back = Math.floor((held - paidBack) * s.guarantee);
    if (back > 0) {
      transactions.push(guarantee(back));
      if (s.recover) transactions.push(recovery(back, s.provider));
    }
    break;
  }
  return { transactions, context: context(status, providerId) };
}

const sumOf = (transactions: LedgerFacts[], match: (account: string) => boolean) =>
  transactions.flatMap((t) => t.entries).filter((e) => match(e.account)).reduce((total, e) => total + e.amountCents, 0);

describe("every statement (property)", () => {
  it("sums to the ledger, account by account, and its words name no other figure", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2000, max: 40_000 }), fc.boolean(), fc.array(step, { minLength: 1, maxLength: 4 }), (budget, urgent, steps) => {
        const items = lineItemsOf(priceTask(budget, urgent ? "urgent" : "standard"));
        const { transactions, context: ctx } = history(items, steps);
        const statement = taskStatement(TASK, items, transactions, ctx);
        const totals = statementTotals(statement);
        expect(-sumOf(transactions, (a) => a === A.posterPayments)).toBe(totals.chargedCents);
        expect(sumOf(transactions, (a) => a === A.refunds)).toBe(totals.refundedCents);
        expect(sumOf(transactions, (a) => a === A.escrow(TASK))).toBe(totals.heldCents);
        expect(sumOf(transactions, (a) => a === A.revenue || a === A.guarantee)).toBe(totals.platformCents);
        for (const id of [MARIA, SAM]) expect(sumOf(transactions, (a) => a === A.providerBalance(id))).toBe(totals.providers.get(id) ?? 0);
        const providersTotal = [...totals.providers.values()].reduce((sum, c) => sum + c, 0);
        expect(totals.chargedCents).toBe(totals.refundedCents + providersTotal + totals.platformCents + totals.heldCents);

        const viewers: StatementViewer[] = [{ role: "poster" }, { role: "admin" }, { role: "provider", id: MARIA }, { role: "provider", id: SAM }];
        for (const viewer of viewers) {
          const words = statementWords(statement, viewer);
          const text = [words.headline, words.summary, words.closedLine, words.rule, ...words.lines.map((l) => l.label)].join(" ");
          if (viewer.role === "provider" && (totals.providers.get(viewer.id) ?? 0) > 0) expect(text).not.toMatch(/pays you nothing/);
          // Every "$x was refunded" names a refund the ledger made.
          const refunds = statement.lines.filter((l) => l.kind === "refund" || l.kind === "dispute_refund").map((l) => l.cents / 100);
          for (const match of text.matchAll(/\$([\d,]+\.\d\d) was refunded/g)) expect(refunds).toContain(Number(match[1]?.replace(",", "")));
          expect(words.lines.reduce((sum, l) => sum + l.cents, 0)).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 300 },
    );
  });
});
