import { MIN_BUDGET_CENTS, SERVICE_FEE_FIXED_CENTS } from "../../../shared/constants.js";
import { felixContextOfTask, type FelixContext, type FelixMode, type FelixResponse } from "../../../shared/felix.js";
import {
  LABOR_RATE_PER_HOUR,
  MILEAGE_RATE,
  STOP_COST,
  SUGGESTION_STEP,
  computePricing,
  evaluateBudget,
  fairRange,
  type BudgetEvaluation,
  type MarketStats,
  type PricingBreakdown,
} from "../../../shared/felix-pricing.js";
import { felixEstimate, figureShown, type BoundsCheck } from "../../../shared/felix-bounds.js";
import { priceRegion } from "../../../shared/felix-region.js";
import { estimateWork, statedTrip, type WorkEstimate, type WorkQuery } from "../../../shared/felix-work.js";
import { centsToDollars, dollarsToCents, priceTask, type TaskPrice } from "../../../shared/money.js";
import type { Phraser } from "../../adapters/felix-phrasing/phraser.js";
import type { Router } from "../../adapters/routing/router.js";
import type { AppContext } from "../../context.js";
import * as compose from "./composer.js";
import { detectIntent, type FelixIntent } from "./intents.js";
import { resolveRoute } from "./places.js";
import { notFound } from "../../http-errors.js";
import { completedMarket, felixTask } from "./repository.js";

// One question to Felix: geocode, price with the engine, compare with the market, word the
// answer. The figures always come from the engine; only the wording may come from a model.

/** The app's context with the two adapters only Felix uses. */
export interface FelixServiceContext extends AppContext {
  router: Router;
  phraser: Phraser;
}

export interface FelixQuestion {
  message: string;
  context: FelixContext;
  mode: FelixMode;
}

interface Answer {
  draft: string;
  check?: BoundsCheck | null;
  pricing: PricingBreakdown | null;
  evaluation: BudgetEvaluation | null;
  market: MarketStats | null;
  price: TaskPrice | null;
  work: WorkEstimate | null;
}

const empty = { pricing: null, evaluation: null, market: null, price: null, work: null };

/** Who asks: a task that is no longer open is discussed only by its poster, its provider and admins. */
export interface FelixAsker {
  id: string;
  isAdmin: boolean;
}

/** Who is asking about an offer: its task's poster, or a provider (decision 072). */
export type FelixSide = "poster" | "provider";

/**
 * A question about a posted task is answered from the task itself (felixContextOfTask), never from
 * the part of it the asker's page shows, so poster and provider get the same engine inputs
 * (docs/decisions/026-one-felix-budget-for-both-sides.md). The offered budget is the task's; an
 * offer's price is the asker's to name (an offer they read, or the price they are about to offer),
 * and the task's poster reads it as the poster.
 */
async function taskContext(ctx: FelixServiceContext, asker: FelixAsker, context: FelixContext): Promise<{ context: FelixContext; side: FelixSide | null }> {
  if (!context.taskId) return { context, side: null };
  const task = await felixTask(ctx.db, context.taskId);
  const mayAsk = task && (task.status === "open" || task.userId === asker.id || task.providerId === asker.id || asker.isAdmin);
  if (!task || !mayAsk) throw notFound("Task not found");
  return {
    context: { ...felixContextOfTask(task.places), offeredBudget: centsToDollars(task.budgetCents), offerPrice: context.offerPrice ?? null, taskId: context.taskId, workAnswer: context.workAnswer ?? null },
    side: task.userId === asker.id ? "poster" : "provider",
  };
}

export async function askFelix(ctx: FelixServiceContext, asker: FelixAsker, asked: FelixQuestion): Promise<FelixResponse> {
  const { context, side } = await taskContext(ctx, asker, asked.context);
  const question = { ...asked, context };
  const intent = detectIntent(question.message);
  const answer = await answerQuestion(ctx, question, intent, side ?? (question.mode === "recommend" ? "poster" : "provider"));
  const facts = {
    mode: question.mode,
    intent: intent.kind,
    category: question.context.category ?? null,
    urgency: question.context.urgency,
    work: answer.work && { label: answer.work.label, quantityFrom: answer.work.quantityFrom, rateFrom: answer.work.rateFrom },
    check: answer.check ?? null,
    pricing: answer.pricing,
    evaluation: answer.evaluation,
    // The fair range a proposal is judged against, so a phrased answer may name it.
    fairRange: answer.evaluation && answer.pricing && fairRange(answer.pricing),
    market: answer.market,
    price: answer.price && {
      budget: centsToDollars(answer.price.budgetCents),
      urgentFee: centsToDollars(answer.price.urgentFeeCents),
      serviceFee: centsToDollars(answer.price.serviceFeeCents),
      totalPaidByPoster: centsToDollars(answer.price.totalCents),
      providerTakeHome: centsToDollars(answer.price.providerShareCents),
      platformCommission: centsToDollars(answer.price.platformCommissionCents),
    },
    rates: {
      mileagePerMile: MILEAGE_RATE,
      laborPerHour: LABOR_RATE_PER_HOUR,
      perStop: STOP_COST,
      minimumBudget: centsToDollars(MIN_BUDGET_CENTS),
      roundedToNearest: SUGGESTION_STEP,
      serviceFeeFixed: centsToDollars(SERVICE_FEE_FIXED_CENTS),
    },
  };
  const reply = await ctx.phraser.phrase({ question: question.message, draft: answer.draft, facts, figures: numbersIn(facts) });
  return {
    reply,
    suggestedBudget: answer.pricing?.suggestedBudget ?? null,
    pricingBreakdown: answer.pricing,
    evaluation: answer.evaluation,
    market: answer.market,
    work: answer.work && {
      label: answer.work.label,
      quantityFrom: answer.work.quantityFrom,
      rateFrom: answer.work.rateFrom,
      question: question.mode === "recommend" ? answer.work.question : null,
    },
  };
}

/** Every number in the facts, and the labor after the urgency multiplier the explanation names. */
function numbersIn(value: unknown): number[] {
  if (typeof value === "number") return [value];
  if (Array.isArray(value)) return value.flatMap(numbersIn);
  if (typeof value === "object" && value !== null) {
    const own = Object.values(value).flatMap(numbersIn);
    if ("laborCost" in value && "urgencyMultiplier" in value && typeof value.laborCost === "number" && typeof value.urgencyMultiplier === "number") {
      own.push(Math.round(value.laborCost * value.urgencyMultiplier * 100) / 100);
    }
    return own;
  }
  return [];
}

/**
 * The built-in reader goes first; only when it read neither the text nor an answer does the
 * optional language model read the hours (decision 054). Without a model, or when it cannot
 * tell, the built-in estimate stands.
 */
async function withModelHours(ctx: FelixServiceContext, query: WorkQuery): Promise<WorkQuery> {
  const builtIn = estimateWork(query);
  const text = [query.title, query.description].filter((part) => part?.trim()).join(". ");
  if (text === "" || builtIn.unit !== "hour" || (builtIn.source !== "usual" && builtIn.source !== "market")) return query;
  const modelHours = await ctx.phraser.readHours(text);
  return modelHours ? { ...query, modelHours } : query;
}

const taskUrgency = (context: FelixContext) => (context.urgency === "urgent" ? "urgent" : "standard");

async function answerQuestion(ctx: FelixServiceContext, { context, mode }: FelixQuestion, intent: FelixIntent, side: FelixSide): Promise<Answer> {
  // Take-home and fee questions about a known amount need no route.
  if ((intent.kind === "take-home" || intent.kind === "fee") && (intent.dollars ?? context.offeredBudget) != null) {
    const dollars = intent.dollars ?? context.offeredBudget ?? 0;
    const price = priceTask(dollarsToCents(dollars), taskUrgency(context));
    return { ...empty, price, draft: intent.kind === "take-home" ? compose.takeHome(price) : compose.posterFee(price) };
  }

  const resolution = await resolveRoute(context, ctx.geocoder, ctx.log);
  const category = context.category?.trim() ?? "";
  // Without a category there is no kind of job or market: that is what Felix asks for.
  if (category === "") {
    const ask = resolution.ok ? "" : compose.askForMissing(resolution.missing, resolution.notFound);
    return { ...empty, draft: [ask, compose.askForCategory()].filter(Boolean).join(" ") };
  }
  // A place missing or not found still gets a figure: from the places found, or the miles the
  // task states, with what Felix needs to count the driving (decision 072).
  const route = resolution.ok ? resolution.route : { points: [], stopCount: context.stops.length, origin: null };
  const missingPlaces = resolution.ok ? "" : compose.askForMissing(resolution.missing, resolution.notFound);

  const market = route.origin ? await completedMarket(ctx.db, category, route.origin) : null;
  // The place's price level (decision 080): the route's start, else the single location.
  const home = context.startCity || context.startState ? { city: context.startCity, state: context.startState } : { city: context.city, state: context.state };
  const region = priceRegion({ ...home, point: route.origin });
  const query = await withModelHours(ctx, { category, title: context.title, description: context.description, answer: context.workAnswer, market: market?.work, region });
  // A single place has no route to measure: the miles and stops the task states stand in.
  const trip = statedTrip(context.title, context.description);
  const measured = route.points.length > 1 ? await ctx.router.drivingMiles(route.points) : 0;
  const miles = route.points.length > 1 ? measured : (trip.miles ?? 0);
  const stopCount = route.stopCount > 0 || route.points.length > 1 ? route.stopCount : (trip.stops ?? 0);
  const estimate = felixEstimate({ query, miles, stops: stopCount, urgency: context.urgency, market: market?.budgets ?? null });
  const { work, check } = estimate;
  // A figure outside the bounds is never shown as it is: the poster reads the question alone
  // (decision 080). The provider, who cannot answer it, is judged against it with the bounds note.
  if (!figureShown(estimate) && check && side === "poster") {
    return { ...empty, draft: [missingPlaces, compose.withheldFigure(check, category, work)].filter(Boolean).join(" "), check, market: market?.budgets ?? null, work };
  }
  const price = (m: number, stops: number, urgency: FelixContext["urgency"]) => computePricing({ miles: m, stops: work.coversStops ? 0 : stops, urgency, work });
  const base = estimate.pricing;
  // On a task that takes offers the price judged is the offer's; otherwise the task's budget.
  const judged = context.offerPrice ?? context.offeredBudget ?? null;
  const offeredEvaluation = mode === "evaluate" && judged !== null ? evaluateBudget(judged, base.suggestedBudget, fairRange(base)) : null;
  const withMarket = (text: string) => text + compose.marketSentence(market?.budgets ?? null, category);
  const result = (pricing: PricingBreakdown, draft: string, evaluation = offeredEvaluation, price: TaskPrice | null = null): Answer => ({
    draft: [missingPlaces, draft].filter(Boolean).join(" "),
    check,
    pricing,
    evaluation,
    market: market?.budgets ?? null,
    price,
    work,
  });

  switch (intent.kind) {
    case "explain":
      return result(base, compose.explanation(base, work));
    case "urgency": {
      const after = price(miles, stopCount, intent.urgency);
      return result(after, compose.urgencyChange(base, after));
    }
    case "add-stop": {
      const after = price(miles, stopCount + 1, context.urgency);
      return result(after, compose.stopAdded(base, after));
    }
    case "remove-stop": {
      if (stopCount === 0) return result(base, compose.stopRemoved(base, null));
      // Drop the last stop: points are start, stops..., end; a stop only stated in words has no detour to drop.
      const points = route.points.filter((_, i) => i !== route.stopCount);
      const fewerMiles = route.stopCount > 0 ? await ctx.router.drivingMiles(points) : miles;
      const after = price(fewerMiles, stopCount - 1, context.urgency);
      return result(after, compose.stopRemoved(base, after));
    }
    case "is-fair": {
      const evaluation = evaluateBudget(intent.dollars, base.suggestedBudget, fairRange(base));
      return result(base, withMarket(compose.proposalSentence(evaluation, base, fairRange(base))), evaluation);
    }
    case "take-home":
    case "fee": {
      const price = priceTask(dollarsToCents(base.suggestedBudget), taskUrgency(context));
      return result(base, intent.kind === "take-home" ? compose.takeHome(price) : compose.posterFee(price), offeredEvaluation, price);
    }
    case "estimate":
      if (mode === "recommend") return result(base, withMarket(compose.suggestion(base, category, work, check)));
      if (offeredEvaluation && context.offerPrice != null) return result(base, withMarket(compose.offerVerdict(offeredEvaluation, base, side, work, check)));
      if (offeredEvaluation) return result(base, withMarket(compose.boundsNote(check, work) + compose.evaluationSentence(offeredEvaluation, base)));
      return result(base, withMarket(compose.askForOffer(base)));
  }
}
