import { LATE_CANCEL_HOURS } from "./constants.js";
import type { LedgerKind } from "./money-lifecycle.js";
import { formatDollarsExact } from "./money.js";
import { endSentence } from "./names.js";
import {
  providerEarning,
  statementRounds,
  statementTotals,
  type EarningStatus,
  type ProviderEarning,
  type RefundReason,
  type StatementLine,
  type StatementLineKind,
  type TaskStatement,
} from "./task-statement.js";

// The one place a task's money is put into words (docs/decisions/073-one-account-of-each-tasks-money.md):
// the task page's payment card, badge and payment box, the closed chat's line, the notices, the
// receipts and the earnings page all read `statementWords` (or, for an earnings row, `earningWords`)
// on the task's statement, so no screen can say "this task pays nothing" beside "you received $18.94".

/** Who reads the account: the poster, one provider, an admin, or a provider whose offer was not chosen. */
export type StatementViewer = { role: "poster" } | { role: "provider"; id: string } | { role: "admin" } | { role: "passed_over" };

export type BadgeTone = "success" | "warning" | "secondary" | "destructive";

export interface StatementWordLine {
  label: string;
  cents: number;
  /** ISO time it moved. */
  at: string;
  /** Into the reader's hands (1), out of them (-1), or part of the account that is not theirs (0). */
  sign: 1 | -1 | 0;
}

export interface StatementWords {
  badge: { label: string; tone: BadgeTone } | null;
  /** Where the money stands now for the reader, or what last happened to it; null when nothing was paid. */
  headline: string | null;
  lines: StatementWordLine[];
  totals: { label: string; cents: number }[];
  /** How an admin's split was worked out (the pro-rata rule), when one split a release. */
  rule: string | null;
  /** The closed chat's line (a cancelled task, or an offer not chosen); null while the chat is open. */
  closedLine: string | null;
  /** The headline and what the task cost or paid in all, for notices (bell, e-mail, push). */
  summary: string;
}

export interface WordOptions {
  /** The name of a provider ("Maria G."); "the provider" unless given. */
  providerName?: (id: string | null) => string;
  /** A date as the reader reads it; the server writes UTC days ("Nov 24, 2026"). */
  date?: (iso: string) => string;
}

const money = formatDollarsExact;

const utcDay = (iso: string) => new Date(iso).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

/** Why the escrow went back, as a clause: "because the provider withdrew". */
function because(reason: RefundReason | null, poster: boolean): string {
  switch (reason) {
    case "cancel":
      return poster ? " because you cancelled the task" : " because the poster cancelled the task";
    case "withdraw":
      return " because the provider withdrew";
    case "remove":
      return " because Errandly removed the task";
    case "release":
      return " because the provider was taken off the task";
    case "late_capture":
      return " because the payment arrived after its window had closed";
    case "report_no_show":
      return poster ? " because you reported that the provider did not show up" : " because the poster reported that the provider did not show up";
    case null:
      return "";
  }
}

const REASON_WORDS: Record<RefundReason, string> = {
  cancel: "the task was cancelled",
  withdraw: "the provider withdrew",
  remove: "Errandly removed the task",
  release: "the provider was taken off the task",
  late_capture: "the payment arrived after its window had closed",
  report_no_show: "the provider did not show up",
};

/** A refund's reason in a receipt's "Why" line; null when the ledger did not say. */
export function refundReasonWords(line: Pick<StatementLine, "kind" | "reason">): string | null {
  if (line.kind === "dispute_refund") return "An admin's resolution of a reported problem";
  if (line.kind === "guarantee_refund") return "An admin's resolution, paid by Errandly's guarantee";
  if (line.reason === null) return null;
  const words = REASON_WORDS[line.reason];
  return words.charAt(0).toUpperCase() + words.slice(1);
}

interface Reader {
  viewer: StatementViewer;
  poster: boolean;
  name: (id: string | null) => string;
  /** "you" for the provider paid, else their name. */
  payee: (id: string | null) => string;
}

function lineLabel(r: Reader, l: StatementLine): string {
  const you = r.viewer.role === "provider" && l.providerId === r.viewer.id;
  const toPoster = r.poster ? "you" : "the poster";
  switch (l.kind) {
    case "payment":
      return r.poster ? "You paid" : "The poster paid";
    case "tip":
      return you ? "Tip from the poster" : `Tip to ${r.name(l.providerId)}`;
    case "refund":
      return `Refunded to ${toPoster}${because(l.reason, r.poster)}`;
    case "late_fee":
      return `Late-cancellation fee to ${r.payee(l.providerId)}`;
    case "release":
      return `Released to ${r.payee(l.providerId)}`;
    case "commission":
      return "Kept by Errandly (service fee and commission)";
    case "dispute_refund":
      return `Refunded to ${toPoster} by an admin's resolution`;
    case "dispute_share":
      return `Paid to ${r.payee(l.providerId)} by an admin's resolution`;
    case "guarantee_refund":
      return `Refunded to ${toPoster} from Errandly's guarantee`;
    case "recovery":
      return you ? "Taken back from your balance for that refund" : `Recovered from ${r.name(l.providerId)}`;
  }
}

function lineSign(r: Reader, l: StatementLine): 1 | -1 | 0 {
  if (r.poster) return l.kind === "payment" || l.kind === "tip" ? -1 : l.kind === "refund" || l.kind === "dispute_refund" || l.kind === "guarantee_refund" ? 1 : 0;
  if (r.viewer.role === "provider" && l.providerId === r.viewer.id) return l.kind === "recovery" ? -1 : 1;
  return 0;
}

/** One thing that happened to the money: one transaction's lines, or a late fee with the refund of the same cancel. */
type Event = StatementLine[];

function eventsOf(lines: StatementLine[]): Event[] {
  const events: Event[] = [];
  for (const l of lines) {
    const last = events.at(-1);
    const sameTransaction = last?.[0]?.transactionId === l.transactionId;
    const feeThenRefund = last?.every((x) => x.kind === "late_fee") && l.kind === "refund";
    if (last && (sameTransaction || feeThenRefund)) last.push(l);
    else events.push([l]);
  }
  return events;
}

function sentenceOf(r: Reader, event: Event): string | null {
  const find = (kind: StatementLineKind) => event.find((l) => l.kind === kind);
  const fee = find("late_fee");
  const refund = find("refund");
  const you = r.poster ? "you" : "the poster";
  if (fee) {
    const cancelled = `${r.poster ? "You" : "The poster"} cancelled less than ${LATE_CANCEL_HOURS} hours before the task`;
    const rest = refund ? ` and ${money(refund.cents)} was refunded to ${r.poster ? "your card" : "the poster"}` : "";
    return `${cancelled}: ${money(fee.cents)} went to ${r.payee(fee.providerId)} as a late-cancellation fee${rest}.`;
  }
  if (refund) return `${money(refund.cents)} was refunded to ${r.poster ? "your card" : "the poster"}${because(refund.reason, r.poster)}.`;
  const share = find("dispute_share");
  const back = find("dispute_refund");
  if (share || back) {
    const parts = [back ? `${money(back.cents)} was refunded to ${you}` : null, share ? `${r.payee(share.providerId)} received ${money(share.cents)}` : null];
    return endSentence(`An admin resolved the reported problem: ${parts.filter(Boolean).join(" and ")}`);
  }
  const release = find("release");
  if (release) return endSentence(`${money(release.cents)} was released to ${r.payee(release.providerId)}`);
  const guarantee = find("guarantee_refund");
  if (guarantee) return `An admin refunded ${money(guarantee.cents)} to ${you} from Errandly's guarantee.`;
  const recovery = find("recovery");
  if (recovery) {
    return r.payee(recovery.providerId) === "you"
      ? `${money(recovery.cents)} of that refund was taken back from your balance, so it comes out of your next payouts.`
      : `${money(recovery.cents)} of that refund was taken back from ${r.name(recovery.providerId)}'s balance.`;
  }
  const tip = find("tip");
  if (tip) return endSentence(`${r.poster ? "You" : "The poster"} tipped ${r.payee(tip.providerId)} ${money(tip.cents)}`);
  return null;
}

/** The pro-rata rule behind a split that released part of the escrow (docs/product.md, Money: disputes). */
function ruleOf(r: Reader, lines: StatementLine[]): string | null {
  const share = lines.findLast((l) => l.kind === "dispute_share" && l.rule !== null && l.rule.releasedCents < l.rule.heldCents);
  if (!share?.rule) return null;
  const { shareCents, heldCents, releasedCents } = share.rule;
  const kept = lines.filter((l) => l.kind === "commission" && l.transactionId === share.transactionId).reduce((sum, l) => sum + l.cents, 0);
  const who = r.payee(share.providerId);
  const gets = who === "you" ? "you receive" : `${who} receives`;
  return (
    `How the split was worked out: of the ${money(heldCents)} held, ${money(heldCents - releasedCents)} went back and ${money(releasedCents)} was released. ` +
    `A full release pays ${who} ${money(shareCents)}, so of a part ${gets} the same proportion, rounded down to the cent: ` +
    `${money(shareCents)} × ${money(releasedCents)} ÷ ${money(heldCents)} = ${money(share.cents)}. Errandly keeps the other ${money(kept)}.`
  );
}

const BADGES: Record<EarningStatus, { label: string; tone: BadgeTone }> = {
  in_progress: { label: "Paid · held in escrow", tone: "warning" },
  held: { label: "Held in escrow", tone: "warning" },
  under_review: { label: "Under review", tone: "destructive" },
  released: { label: "Released", tone: "success" },
  refunded: { label: "Refunded to poster", tone: "secondary" },
  settled: { label: "Settled by admin", tone: "success" },
  late_fee: { label: "Late-cancellation fee", tone: "success" },
  recovered: { label: "Refund recovered", tone: "secondary" },
};

/** An /earnings row's status, short (the page's column; the task page's badge says more). */
const EARNING_LABELS: Record<EarningStatus, string> = {
  in_progress: "In progress",
  held: "Held",
  under_review: "Under review",
  released: "Released",
  refunded: "Refunded to poster",
  settled: "Settled by admin",
  late_fee: "Late-cancellation fee",
  recovered: "Refund recovered",
};

const PASSED_OVER = "The poster chose another provider's offer, so yours is closed and this task pays you nothing. You can make offers on other tasks on the job board.";

/** The account of `statement` in words for `viewer` (docs/product.md, Money: "One account of each task"). */
export function statementWords(statement: TaskStatement, viewer: StatementViewer, options: WordOptions = {}): StatementWords {
  if (viewer.role === "passed_over") {
    const closedLine = "Another offer was chosen, so this task's chat is only between its poster and the provider they chose.";
    return { badge: { label: "Another offer was chosen", tone: "secondary" }, headline: PASSED_OVER, lines: [], totals: [], rule: null, closedLine, summary: PASSED_OVER };
  }
  const name = (id: string | null) => options.providerName?.(id) ?? "the provider";
  const poster = viewer.role === "poster";
  const r: Reader = { viewer, poster, name, payee: (id) => (viewer.role === "provider" && id === viewer.id ? "you" : name(id)) };
  const date = options.date ?? utcDay;
  const totals = statementTotals(statement);
  const { context, items } = statement;
  // A provider reads the rounds that were theirs: not a refund of the provider before them.
  const lines =
    viewer.role === "provider"
      ? statementRounds(statement).filter((round) => round.providerId === viewer.id).flatMap((round) => round.lines)
      : statement.lines.filter((l) => !(poster && l.kind === "recovery"));
  const earning = viewer.role === "provider" ? providerEarning(statement, viewer.id) : null;
  const held = viewer.role === "provider" && earning === null ? 0 : totals.heldCents;
  const frozen = context.disputeOpen || context.hold?.status === "disputed";
  const heldLine =
    held === 0
      ? null
      : frozen
        ? `${money(held)} is held in escrow until an admin decides on the reported problem.`
        : context.hold?.status === "holding"
          ? viewer.role === "provider"
            ? `You earn ${money(items.providerShareCents)}: it is held in escrow and released to you on ${date(context.hold.releaseAt)}.`
            : endSentence(`${money(held)} is held in escrow; ${money(items.providerShareCents)} is released to ${name(context.providerId)} on ${date(context.hold.releaseAt)}`)
          : viewer.role === "provider"
            ? `The poster paid ${money(held)}, held in escrow: you earn ${money(items.providerShareCents)} once the work is done.`
            : `${money(held)} is held in escrow until the work is done.`;
  const events = eventsOf(lines);
  const sentences = events.flatMap((event) => sentenceOf(r, event) ?? []);
  // What last happened: the events of the ledger's last moment (a cancel's fee and refund, a
  // resolution's split or its guarantee refund and recovery are written together).
  const lastAt = events.at(-1)?.[0]?.at;
  const latest = events.filter((event) => event[0]?.at === lastAt).flatMap((event) => sentenceOf(r, event) ?? []);
  const received = viewer.role === "provider" ? (totals.providers.get(viewer.id) ?? 0) : 0;
  const payment = lines.some((l) => l.kind === "payment");
  const nothingToYou = viewer.role === "provider" && payment && held === 0 && received === 0 ? " This task pays you nothing." : "";
  const headline = heldLine ?? (latest.length > 0 ? `${latest.join(" ")}${nothingToYou}` : null);
  // What the task cost the poster: its payments less what came back (tips are gifts, counted apart).
  const net = totals.paymentsCents - totals.refundedCents;
  // Said when it adds something: a cost left after refunds, or several payments to add up.
  const severalPayments = statement.lines.filter((l) => l.kind === "payment").length > 1;
  const inAll =
    poster && totals.refundedCents > 0 && held === 0 && (net > 0 || severalPayments)
      ? ` In all you paid ${money(totals.paymentsCents)} and were refunded ${money(totals.refundedCents)}: this task cost you ${money(net)}.`
      : viewer.role === "provider" && received > 0 && held === 0 && sentences.length > latest.length
        ? ` In all you received ${money(received)} for this task.`
        : "";
  const summary = `${headline ?? (context.status === "cancelled" ? "Nothing was charged for this task." : "No payment was taken for this task.")}${inAll}`;
  return {
    badge: badgeOf(viewer, totals, earning, frozen),
    headline,
    lines: lines.map((l) => ({ label: lineLabel(r, l), cents: l.cents, at: l.at, sign: lineSign(r, l) })),
    totals: totalsOf(viewer, totals, received, held, earning),
    rule: ruleOf(r, lines),
    closedLine: context.status === "cancelled" ? closedLineOf(r, lines, latest) : null,
    summary,
  };
}

function badgeOf(
  viewer: StatementViewer,
  totals: ReturnType<typeof statementTotals>,
  earning: ProviderEarning | null,
  frozen: boolean,
): StatementWords["badge"] {
  if (viewer.role === "provider") return earning ? BADGES[earning.status] : null;
  if (totals.paymentsCents === 0) return null;
  if (totals.heldCents > 0) return frozen ? BADGES.under_review : BADGES.in_progress;
  if (totals.refundedCents === 0) return BADGES.released;
  return totals.refundedCents >= totals.paymentsCents ? { label: "Refunded", tone: "secondary" } : { label: "Partly refunded", tone: "secondary" };
}

function totalsOf(
  viewer: StatementViewer,
  totals: ReturnType<typeof statementTotals>,
  received: number,
  held: number,
  earning: ProviderEarning | null,
): StatementWords["totals"] {
  const list: StatementWords["totals"] = [];
  if (viewer.role === "provider") {
    if (earning && !earning.moved) list.push({ label: "You earn", cents: earning.earnedCents });
    else if (earning) list.push({ label: "You received", cents: received });
    return list;
  }
  if (totals.paymentsCents === 0) return list;
  const poster = viewer.role === "poster";
  list.push({ label: poster ? "You paid" : "The poster paid", cents: totals.paymentsCents });
  if (totals.refundedCents > 0) {
    list.push({ label: poster ? "Refunded to you" : "Refunded to the poster", cents: totals.refundedCents });
    list.push({ label: poster ? "Your cost" : "The poster's cost", cents: totals.paymentsCents - totals.refundedCents });
  }
  if (totals.tipsCents > 0) list.push({ label: poster ? "Your tips" : "Tips", cents: totals.tipsCents });
  if (!poster) {
    const toProviders = [...totals.providers.values()].reduce((sum, cents) => sum + cents, 0);
    list.push({ label: "Providers received", cents: toProviders }, { label: "Errandly kept", cents: totals.platformCents });
  }
  if (held > 0) list.push({ label: "Held in escrow", cents: held });
  return list;
}

function closedLineOf(r: Reader, lines: StatementLine[], latest: string[]): string {
  const split = lines.some((l) => l.kind === "dispute_share" || l.kind === "dispute_refund");
  const removed = lines.some((l) => l.kind === "refund" && l.reason === "remove");
  const what = split
    ? "An admin settled this task"
    : removed
      ? "Errandly removed this task"
      : r.poster
        ? "You cancelled this task"
        : "The poster cancelled this task";
  const outcome = lines.some((l) => l.kind === "payment") ? ` ${latest.join(" ")}` : " Nothing was charged.";
  return `${what}, so the chat is closed.${outcome}`.trimEnd();
}

/** An /earnings row in words: its status, "You earned" or "You earn", and when the money moved or will. */
export function earningWords(earning: ProviderEarning, date: (iso: string) => string = utcDay): { status: string; amountLabel: string; when: string } {
  const at = (iso: string | null) => (iso ? ` ${date(iso)}` : "");
  const refunded = earning.refundedToPosterCents > 0 ? `; ${money(earning.refundedToPosterCents)} was refunded to the poster` : "";
  const when: Record<EarningStatus, string> = {
    in_progress: "Held for release once you complete the work",
    held: `Releases${at(earning.releaseAt)}`,
    under_review: "Held until an admin resolves the reported problem",
    released: `Released${at(earning.movedAt)}`,
    refunded: `Refunded to the poster${at(earning.refundedAt)}`,
    settled: `Paid to you${at(earning.movedAt)} by an admin's resolution of a reported problem${refunded}`,
    late_fee: `Paid to you${at(earning.movedAt)}: the poster cancelled less than ${LATE_CANCEL_HOURS} hours before the task${refunded}`,
    recovered: `Released${at(earning.movedAt)}; ${money(earning.recoveredCents)} was taken back for the poster's refund`,
  };
  return { status: EARNING_LABELS[earning.status], amountLabel: earning.moved ? "You earned" : "You earn", when: when[earning.status] };
}

/** The "Type" column of the provider's CSV: each ledger kind that can touch their balance, in words. */
export const BALANCE_ENTRY_WORDS: Record<LedgerKind, string> = {
  capture: "Payment",
  refund: "Refund",
  release: "Released",
  split: "Settled by admin",
  late_fee: "Late-cancellation fee",
  tip: "Tip",
  guarantee: "Refund recovered",
  payout: "Payout",
};
