import type { TaskStatus } from "./constants.js";
import type { EscrowStatus, LedgerKind } from "./money-lifecycle.js";
import type { TaskLineItems } from "./money.js";

// One account of each task's money (docs/product.md, Money: "One account of each task";
// docs/decisions/073-one-account-of-each-tasks-money.md): the task's line items, fixed when it was
// priced, and its ledger transactions become one statement: what the poster was charged, what came
// back and why, what each provider received or gave back, what the platform kept and what is still
// held. Every page, notice, receipt and export reads this statement and tells it in words through
// statement-words.ts; none sums the ledger or prices the task again.

/** The ledger's accounts (docs/decisions/008-payments-and-ledger.md, "Ledger"). */
export const LEDGER_ACCOUNTS = {
  posterPayments: "external:poster_payments",
  payouts: "external:payouts",
  refunds: "external:refunds",
  revenue: "platform:revenue",
  /** Pays posters' refunds on disputes resolved after the money was released (decision 057); negative as it pays. */
  guarantee: "platform:guarantee",
  escrow: (taskId: string) => `escrow:task:${taskId}`,
  providerBalance: (userId: string) => `provider:${userId}:balance`,
} as const;

const PROVIDER_ACCOUNT = /^provider:(.+):balance$/;

/**
 * Why an escrow went back to the poster: the task transition (or the late capture) that refunded
 * it, kept as the refund's ledger memo. Refunds recorded before migration 0025 have none.
 */
export const REFUND_REASONS = ["cancel", "withdraw", "remove", "release", "late_capture", "report_no_show"] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

function refundReasonOf(memo: string | null): RefundReason | null {
  return REFUND_REASONS.find((reason) => reason === memo) ?? null;
}

/** One ledger transaction of the task, as the server reads it: its postings per account. */
export interface LedgerFacts {
  id: string;
  kind: LedgerKind;
  /** ISO time it was written. */
  at: string;
  memo: string | null;
  entries: readonly { account: string; amountCents: number }[];
}

/**
 * What one line of the statement says moved:
 * - payment: the poster's card into escrow; tip: the poster's card to the provider
 * - refund: the escrow back to the poster's card, with its reason
 * - late_fee: the escrow to the provider, a late cancellation's fee
 * - release: the escrow to the provider, their share; commission: the rest to the platform
 * - dispute_refund / dispute_share: an admin's split of the escrow, to the poster and to the provider
 * - guarantee_refund: the platform's guarantee to the poster's card, after release
 * - recovery: the provider's balance back to the guarantee, when the admin recovered that refund
 */
export const STATEMENT_LINE_KINDS = [
  "payment",
  "tip",
  "refund",
  "late_fee",
  "release",
  "commission",
  "dispute_refund",
  "dispute_share",
  "guarantee_refund",
  "recovery",
] as const;
export type StatementLineKind = (typeof STATEMENT_LINE_KINDS)[number];

/**
 * The pro-rata rule's figures behind a provider's part of a release (docs/product.md, Money:
 * disputes): they receive floor(share × released / held) of it, the platform the rest.
 */
export interface ReleaseRule {
  /** The task's stored provider share. */
  shareCents: number;
  /** What the escrow held when it was released or split. */
  heldCents: number;
  /** What of it was released (the rest went back to the poster). */
  releasedCents: number;
}

export interface StatementLine {
  transactionId: string;
  kind: StatementLineKind;
  /** What moved, in cents, always positive. */
  cents: number;
  /** ISO time the ledger moved it. */
  at: string;
  /** The provider paid (release, dispute_share, late_fee, tip) or recovered from (recovery). */
  providerId: string | null;
  /** A refund's reason; null for every other line and for refunds that did not record one. */
  reason: RefundReason | null;
  /** A release's or a split's figures (release and dispute_share lines). */
  rule: ReleaseRule | null;
}

/** What the task's records say besides the ledger: its state, its provider now, its hold and any open dispute. */
export interface StatementContext {
  status: TaskStatus;
  providerId: string | null;
  hold: { status: EscrowStatus; releaseAt: string } | null;
  disputeOpen: boolean;
}

export interface TaskStatement {
  taskId: string;
  items: TaskLineItems;
  /** In the order the ledger wrote them. */
  lines: StatementLine[];
  context: StatementContext;
}

/**
 * The statement of a task from its line items and its ledger transactions (in the order they were
 * written). Throws on a transaction whose postings it cannot account for, so a new kind of money
 * movement cannot be shown as nothing.
 */
export function taskStatement(taskId: string, items: TaskLineItems, transactions: readonly LedgerFacts[], context: StatementContext): TaskStatement {
  return { taskId, items, lines: transactions.flatMap((t) => linesOf(taskId, items, t)), context };
}

function linesOf(taskId: string, items: TaskLineItems, t: LedgerFacts): StatementLine[] {
  const sum = (match: (account: string) => boolean, sign: 1 | -1) =>
    t.entries.filter((e) => match(e.account) && Math.sign(e.amountCents) === sign).reduce((total, e) => total + Math.abs(e.amountCents), 0);
  const at = (account: string) => (a: string) => a === account;
  const providerEntry = t.entries.find((e) => PROVIDER_ACCOUNT.test(e.account));
  const providerId = providerEntry ? (PROVIDER_ACCOUNT.exec(providerEntry.account)?.[1] ?? null) : null;
  const toProvider = sum((a) => PROVIDER_ACCOUNT.test(a), 1);
  const fromProvider = sum((a) => PROVIDER_ACCOUNT.test(a), -1);
  const fromEscrow = sum(at(LEDGER_ACCOUNTS.escrow(taskId)), -1);
  const charged = sum(at(LEDGER_ACCOUNTS.posterPayments), -1);
  const refunded = sum(at(LEDGER_ACCOUNTS.refunds), 1);
  const kept = sum(at(LEDGER_ACCOUNTS.revenue), 1);
  const line = (kind: StatementLineKind, cents: number, extra: Partial<StatementLine> = {}): StatementLine[] =>
    cents > 0 ? [{ transactionId: t.id, kind, cents, at: t.at, providerId: null, reason: null, rule: null, ...extra }] : [];
  const rule = (releasedCents: number): ReleaseRule => ({ shareCents: items.providerShareCents, heldCents: fromEscrow, releasedCents });
  switch (t.kind) {
    case "capture":
      return line("payment", charged);
    case "tip":
      return line("tip", charged, { providerId });
    case "refund":
      return line("refund", refunded, { reason: refundReasonOf(t.memo) });
    case "late_fee":
      return line("late_fee", toProvider, { providerId });
    case "release":
      return [...line("release", toProvider, { providerId, rule: rule(fromEscrow) }), ...line("commission", kept)];
    case "split":
      return [
        ...line("dispute_refund", refunded),
        ...line("dispute_share", toProvider, { providerId, rule: rule(fromEscrow - refunded) }),
        ...line("commission", kept),
      ];
    case "guarantee":
      return fromProvider > 0 ? line("recovery", fromProvider, { providerId }) : line("guarantee_refund", refunded);
    case "payout":
      throw new Error(`A payout (${t.id}) belongs to no task`);
  }
}

/** Totals of the statement's lines, each from the lines alone. */
export interface StatementTotals {
  /** Taken from the poster's card for the work (payments), and for tips. */
  paymentsCents: number;
  tipsCents: number;
  /** payments + tips. */
  chargedCents: number;
  /** Given back to the poster's card, from escrow or the guarantee. */
  refundedCents: number;
  /** What each provider holds of this task's money now: received less recovered, tips included. */
  providers: Map<string, number>;
  /** What the platform kept: commissions (service fees included), less guarantee refunds, plus recoveries. */
  platformCents: number;
  /** Still in the task's escrow. */
  heldCents: number;
}

const ESCROW_OUT: readonly StatementLineKind[] = ["refund", "late_fee", "release", "commission", "dispute_refund", "dispute_share"];
const TO_POSTER: readonly StatementLineKind[] = ["refund", "dispute_refund", "guarantee_refund"];
const TO_PROVIDER: readonly StatementLineKind[] = ["release", "dispute_share", "late_fee", "tip"];

export function statementTotals(statement: Pick<TaskStatement, "lines">): StatementTotals {
  const total = (kinds: readonly StatementLineKind[]) => statement.lines.filter((l) => kinds.includes(l.kind)).reduce((sum, l) => sum + l.cents, 0);
  const providers = new Map<string, number>();
  for (const l of statement.lines) {
    if (l.providerId === null) continue;
    const sign = l.kind === "recovery" ? -1 : TO_PROVIDER.includes(l.kind) ? 1 : 0;
    providers.set(l.providerId, (providers.get(l.providerId) ?? 0) + sign * l.cents);
  }
  const paymentsCents = total(["payment"]);
  const tipsCents = total(["tip"]);
  return {
    paymentsCents,
    tipsCents,
    chargedCents: paymentsCents + tipsCents,
    refundedCents: total(TO_POSTER),
    providers,
    platformCents: total(["commission", "recovery"]) - total(["guarantee_refund"]),
    heldCents: paymentsCents - total(ESCROW_OUT),
  };
}

/**
 * The most an admin's resolution may give back (docs/product.md, disputes): what the escrow holds
 * while it holds money, else what the poster paid over every payment and was not refunded yet. A
 * task paid again after a withdrawal counts both payments and both refunds, never the price once.
 */
export function mostDisputeRefundCents(totals: Pick<StatementTotals, "heldCents" | "paymentsCents" | "refundedCents">): number {
  return totals.heldCents > 0 ? totals.heldCents : Math.max(0, totals.paymentsCents - totals.refundedCents);
}

/**
 * The statement's lines in rounds: each payment starts one, and what its escrow became (a refund,
 * a fee, a release, a split) and what followed (tips, the guarantee) belong to it. A round's
 * provider is the one it paid, or for the last round the task's provider now (see below).
 */
export interface StatementRound {
  lines: StatementLine[];
  providerId: string | null;
}

export function statementRounds(statement: Pick<TaskStatement, "lines" | "context">): StatementRound[] {
  const rounds: StatementLine[][] = [];
  for (const l of statement.lines) {
    const current = rounds.at(-1);
    if (l.kind === "payment" || !current) rounds.push([l]);
    else current.push(l);
  }
  // The last round is the current provider's while its escrow still holds money, or when the task
  // ended with them (done, or cancelled with its refund); a round refunded before a task opened
  // again (a withdrawal, a provider taken off, a late capture) was not theirs.
  const { status, providerId } = statement.context;
  const endedWithProvider = statementTotals(statement).heldCents > 0 || status === "in_progress" || status === "completed" || status === "cancelled";
  return rounds.map((lines, index) => ({
    lines,
    providerId: lines.find((l) => l.providerId !== null)?.providerId ?? (index === rounds.length - 1 && endedWithProvider ? providerId : null),
  }));
}

/**
 * Where a paid task's money stands for one provider (docs/product.md, Money: "/earnings"): paid and
 * the work not done; held until `releaseAt`; under review; released to them; refunded to the poster
 * (nothing to them); settled by an admin's split; a late-cancellation fee paid to them; or released
 * and then partly taken back for a refund the admin recovered from them.
 */
export const EARNING_STATUSES = ["in_progress", "held", "under_review", "released", "refunded", "settled", "late_fee", "recovered"] as const;
export type EarningStatus = (typeof EARNING_STATUSES)[number];

export interface ProviderEarning {
  status: EarningStatus;
  /** Moved to them (net of recoveries, tips aside), or the share to come while the money is held. */
  earnedCents: number;
  /** Whether `earnedCents` moved already ("You earned") or is still to come ("You earn"). */
  moved: boolean;
  tipsCents: number;
  /** What went back to the poster in this provider's rounds. */
  refundedToPosterCents: number;
  recoveredCents: number;
  /** When money last moved to them (release, split, late fee), or went back to the poster. */
  movedAt: string | null;
  refundedAt: string | null;
  /** Held: when the release falls due. */
  releaseAt: string | null;
}

/** One provider's part of the statement; null when no round of it is theirs. */
export function providerEarning(statement: TaskStatement, providerId: string): ProviderEarning | null {
  const rounds = statementRounds(statement).filter((r) => r.providerId === providerId);
  if (rounds.length === 0) return null;
  const lines = rounds.flatMap((r) => r.lines);
  const theirs = (kind: StatementLineKind) => lines.filter((l) => l.kind === kind && l.providerId === providerId);
  const sum = (ls: StatementLine[]) => ls.reduce((total, l) => total + l.cents, 0);
  const work = [...theirs("release"), ...theirs("dispute_share"), ...theirs("late_fee")];
  const recovered = sum(theirs("recovery"));
  const refunds = lines.filter((l) => TO_POSTER.includes(l.kind));
  const held = statementTotals(statement).heldCents;
  const current = statement.context.providerId === providerId && held > 0;
  const splits = lines.filter((l) => l.kind === "dispute_share" || l.kind === "dispute_refund");
  const status: EarningStatus = current
    ? statement.context.disputeOpen || statement.context.hold?.status === "disputed"
      ? "under_review"
      : statement.context.hold?.status === "holding"
        ? "held"
        : "in_progress"
    : splits.length > 0
      ? sum(theirs("dispute_share")) > 0
        ? "settled"
        : "refunded"
      : theirs("release").length > 0
        ? recovered > 0
          ? "recovered"
          : "released"
        : theirs("late_fee").length > 0
          ? "late_fee"
          : "refunded";
  const moved = !current;
  return {
    status,
    earnedCents: moved ? sum(work) - recovered : statement.items.providerShareCents,
    moved,
    tipsCents: sum(theirs("tip")),
    refundedToPosterCents: sum(refunds),
    recoveredCents: recovered,
    movedAt: work.at(-1)?.at ?? null,
    refundedAt: refunds.at(-1)?.at ?? null,
    releaseAt: status === "held" ? (statement.context.hold?.releaseAt ?? null) : null,
  };
}
