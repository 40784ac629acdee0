import { categoryLabel } from "@shared/constants";
import type { FelixContext, FelixMode } from "@shared/felix";
import type { BudgetStatus } from "@shared/felix-pricing";
import { dollarsToCents, formatDollars, formatDollarsExact } from "@shared/money";
import { formatPlace } from "@shared/places";

// Felix's fixed words in the dialog (docs/product.md#felix) and the greeting built from the task.

/**
 * What an evaluation judges: the task's budget (a provider before claiming, the spec's case), an
 * offer its poster is reading, or the price a provider is about to offer (decision 072).
 */
export type FelixSubject = "task" | "offer" | "my-offer";

export const DIALOG_TITLES: Record<FelixMode, string> = {
  recommend: "Ask Felix - Budget Helper",
  evaluate: "Ask Felix - Budget Evaluator",
};

export const HELPER_TEXTS: Record<FelixMode, string> = {
  recommend: "Felix will help you determine a fair budget based on your task details.",
  evaluate: "Felix will help you evaluate if this task's budget is fair before claiming.",
};

/** The helper text under the title: the spec's for the poster's budget and the provider before claiming; an offer's own words otherwise. */
export function helperText(mode: FelixMode, subject: FelixSubject = "task"): string {
  if (mode === "recommend" || subject === "task") return HELPER_TEXTS[mode];
  return subject === "offer" ? "Felix will help you judge whether this offer's price is fair for the work." : "Felix will help you judge the price you are about to offer.";
}

export const AUTO_MESSAGES: Record<FelixMode, string> = {
  recommend: "Please calculate the budget for this task.",
  evaluate: "Please evaluate this task's budget.",
};

const OFFER_AUTO_MESSAGES: Record<Exclude<FelixSubject, "task">, string> = {
  offer: "Please evaluate this offer.",
  "my-offer": "Please evaluate my offer price.",
};

export const TROUBLE_MESSAGE = "I'm having some trouble right now. You can manually enter a budget, or try asking me again.";

export const STATUS_DISPLAY: Record<BudgetStatus, { label: string; tone: "success" | "warning" | "info" }> = {
  high: { label: "Great Opportunity", tone: "success" },
  low: { label: "Below Market", tone: "warning" },
  fair: { label: "Fair Offer", tone: "info" },
};

/** An offer's price read by its poster or its provider: "Great Opportunity" is the claiming provider's word only. */
const OFFER_STATUS_DISPLAY: Record<Exclude<FelixSubject, "task">, Record<BudgetStatus, { label: string; tone: "success" | "warning" | "info" }>> = {
  offer: {
    high: { label: "Above Market", tone: "warning" },
    low: { label: "Below Market", tone: "info" },
    fair: { label: "Fair Price", tone: "info" },
  },
  "my-offer": {
    high: { label: "Above Market", tone: "warning" },
    low: { label: "Below Market", tone: "warning" },
    fair: { label: "Fair Price", tone: "info" },
  },
};

export function statusDisplay(status: BudgetStatus, subject: FelixSubject = "task") {
  return subject === "task" ? STATUS_DISPLAY[status] : OFFER_STATUS_DISPLAY[subject][status];
}

export const usd = (dollars: number) => formatDollars(dollarsToCents(dollars));
/** Always with cents ("$7.13", "$20.00"), for lines that add up. */
export const usdExact = (dollars: number) => formatDollarsExact(dollarsToCents(dollars));

/** "+12.5%" above, "-8%" below, "0%" on the mark. */
export function signedPercent(percent: number): string {
  return `${percent > 0 ? "+" : ""}${percent}%`;
}

const has = (value: string | null | undefined): value is string => typeof value === "string" && value.trim() !== "";

/** What recommend mode still needs before it can give a figure: a category and a place (one location, or a start and an end). */
function missingForFigure(context: FelixContext): string[] {
  const missing: string[] = [];
  if (!has(context.category)) missing.push("a category");
  const route = has(context.startLocation) || has(context.endLocation);
  if (route) {
    if (!has(context.startLocation)) missing.push("a start location");
    if (!has(context.endLocation)) missing.push("an end location");
  } else if (!has(context.location) && !has(context.city)) {
    missing.push("a location (or a start and end)");
  }
  return missing;
}

/**
 * Felix's auto-send condition (docs/product.md#felix): evaluate needs an offer and a category;
 * recommend a category and its places (one location, or a start and an end), so a single-place
 * task gets its first figure at once too.
 */
export function autoMessage(mode: FelixMode, context: FelixContext, subject: FelixSubject = "task"): string | null {
  if (!has(context.category)) return null;
  if (mode === "evaluate" && subject !== "task") return context.offerPrice != null ? OFFER_AUTO_MESSAGES[subject] : null;
  if (mode === "evaluate") return context.offeredBudget != null ? AUTO_MESSAGES.evaluate : null;
  return missingForFigure(context).length === 0 ? AUTO_MESSAGES.recommend : null;
}

const joinAnd = (items: readonly string[]) => (items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1) ?? ""}`);

/** "Use $X as My Budget" asks first when X is lower than the budget the poster typed. */
export function lowerBudgetQuestion(suggestion: number, typed: number | null | undefined): string | null {
  if (typed == null || suggestion >= typed) return null;
  return `Felix suggests ${usd(suggestion)}, which is lower than the ${usd(typed)} you typed. Lower your budget to ${usd(suggestion)}?`;
}

export function greeting(mode: FelixMode, context: FelixContext, subject: FelixSubject = "task"): string {
  const lines: string[] = [];
  if (has(context.title)) lines.push(`Task: ${context.title.trim()}`);
  if (has(context.description)) {
    const description = context.description.trim();
    lines.push(`Description: ${description.length > 140 ? `${description.slice(0, 140)}…` : description}`);
  }
  if (has(context.category)) lines.push(`Category: ${categoryLabel(context.category)}`);
  const start = formatPlace(context.startLocation, context.startCity, context.startState);
  const end = formatPlace(context.endLocation, context.endCity, context.endState);
  const single = formatPlace(context.location, context.city, context.state);
  if (start) lines.push(`Start: ${start}`);
  if (end) lines.push(`End: ${end}`);
  if (!start && !end && single) lines.push(`Location: ${single}`);
  if (subject === "task" && context.offeredBudget != null) lines.push(`Offered budget: ${usd(context.offeredBudget)}`);
  if (subject !== "task" && context.offerPrice != null) lines.push(`${subject === "offer" ? "Offer" : "Your price"}: ${usd(context.offerPrice)}`);

  const intro =
    mode === "recommend"
      ? "Hi, I'm Felix, your budget helper. I work out a fair budget from the distance, the time and the stops."
      : "Hi, I'm Felix, your budget evaluator. I check whether a task's budget is fair for the work involved.";
  const known = lines.length > 0 ? `\n\nHere's what I know so far:\n${lines.join("\n")}` : "";
  const missing = missingForFigure(context);
  const next = autoMessage(mode, context, subject)
    ? mode === "recommend"
      ? "\n\nI'm working out a first figure now; tell me more about the size of the job and I'll refine it."
      : ""
    : mode === "recommend"
      ? `\n\nAdd ${joinAnd(missing)}, then ask me anything about the budget.`
      : subject === "my-offer"
        ? "\n\nType your price in the offer form, then ask me again, or ask whether an amount is fair."
        : "\n\nAsk me whether an amount is fair, what you'd take home, or why a budget is what it is.";
  return `${intro}${known}${next}`;
}
