import type { FelixUrgency } from "../../../shared/felix-pricing.js";

// What a message asks Felix, by keywords. The dialog's own messages ("Please calculate the budget
// for this task.", "Please evaluate this task's budget.") and anything not recognised get the
// mode's main answer, so Felix never stays silent.

export type FelixIntent =
  | { kind: "estimate" }
  | { kind: "explain" }
  | { kind: "urgency"; urgency: FelixUrgency }
  | { kind: "add-stop" }
  | { kind: "remove-stop" }
  | { kind: "is-fair"; dollars: number }
  | { kind: "take-home"; dollars: number | null }
  | { kind: "fee"; dollars: number | null };

/** The first amount in a message: "$45", "$1,250.50", "45 dollars", "45 bucks". */
export function dollarsIn(message: string): number | null {
  const match = /\$\s?(\d[\d,]*(?:\.\d{1,2})?)|\b(\d[\d,]*(?:\.\d{1,2})?)\s?(?:dollars|bucks|usd)\b/i.exec(message);
  const digits = (match?.[1] ?? match?.[2])?.replaceAll(",", "");
  if (!digits) return null;
  const value = Number(digits);
  return Number.isFinite(value) ? value : null;
}

const TAKE_HOME = /take[- ]?home|\bearn|\bpayout|\bpaid out|provider (?:get|make|keep|receive)s?|(?:get|make|keep|receive) (?:as|for) (?:the|a) provider|\bcommission/i;
const FEE = /\bfees?\b|\bin total\b|\btotal (?:cost|price|to pay)|\bcharged?\b|\bcheckout\b/i;
const ADD_STOP = /\b(?:add|adding|another|extra|one more|plus a)\b[^.?!]{0,20}\bstops?\b/i;
const REMOVE_STOP = /\b(?:remove|removing|drop|dropping|skip|without|fewer|less|delete)\b[^.?!]{0,20}\bstops?\b/i;
const URGENT = /\burgent|\brush\b|\basap\b|\bright away\b|\bsame[- ]day\b/i;
const FLEXIBLE = /\bflexib|\bno rush\b|\bwhenever\b|\bno hurry\b|\bany ?time\b/i;
const STANDARD = /\bnot urgent\b|\bstandard\b|\bnormal (?:timing|speed|priority)\b/i;
const EXPLAIN = /\bwhy\b|\bexplain|\bbreak ?down|\bhow (?:did|do|does) (?:you|it|this|that|felix)\b|\bhow (?:is|was) (?:it|this|that|the price|the budget) (?:calculated|computed|worked out)/i;
// A proposed amount as a follow-up: "would $45 be better?", "what if I offer $45", "$45 instead?".
const FAIR =
  /\bfair\b|\benough\b|\bok(?:ay)?\b|\breasonable\b|\btoo (?:low|high|much|little)\b|\bwhat about\b|\bhow about\b|\bgood\b|\bbetter\b|\bworse\b|\binstead\b|\bwhat if\b|\b(?:would|could|should|can) (?:i|we)?\s?(?:offer|pay|post|ask|charge|accept|take)\b|\b(?:would|does|is) \$|\bworth\b/i;

export function detectIntent(message: string): FelixIntent {
  const dollars = dollarsIn(message);
  if (TAKE_HOME.test(message)) return { kind: "take-home", dollars };
  if (FEE.test(message)) return { kind: "fee", dollars };
  // "Remove" before "add": "without the extra stop" removes one.
  if (REMOVE_STOP.test(message)) return { kind: "remove-stop" };
  if (ADD_STOP.test(message)) return { kind: "add-stop" };
  // "Not urgent" names urgency but means standard, so it is checked before "urgent".
  if (FLEXIBLE.test(message)) return { kind: "urgency", urgency: "flexible" };
  if (STANDARD.test(message)) return { kind: "urgency", urgency: "standard" };
  if (URGENT.test(message)) return { kind: "urgency", urgency: "urgent" };
  if (dollars !== null && (FAIR.test(message) || message.trim().length <= 12)) return { kind: "is-fair", dollars };
  if (EXPLAIN.test(message)) return { kind: "explain" };
  return { kind: "estimate" };
}
