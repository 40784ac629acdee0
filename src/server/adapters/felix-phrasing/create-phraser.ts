import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { ModelHours } from "../../../shared/felix-work.js";
import { systemTimers, type Timers } from "../clock/timers.js";
import type { Phraser } from "./phraser.js";

// The phraser port (phraser.ts): the built-in text, or a language model whose answer is checked
// against the engine's figures (docs/decisions/012-felix-conversation-and-language-model.md), and
// which may read a task's hours (docs/decisions/054-felix-prices-the-works-own-hours.md).

export interface PhraserOptions {
  /** An API base (".../v1", we add "/chat/completions") or the full chat-completions URL. */
  url?: string;
  model?: string;
  apiKey?: string;
  timeoutMs: number;
  log?: FastifyBaseLogger;
  /** The request's timeout runs on these; tests pass virtual ones. */
  timers?: Timers;
}

export const SYSTEM_PROMPT = [
  "You are Felix, the friendly budget assistant of Errandly, a marketplace for local errands.",
  "Answer the user's question in at most four short sentences of plain English, without markdown.",
  "The JSON facts come from Errandly's pricing engine and are correct. Use only those numbers:",
  "never compute, round, estimate or invent a dollar amount, and write amounts as $12.50 or $20.",
  "The draft answer is correct; you may reword it but must keep its meaning and its figures.",
].join(" ");

export const READING_PROMPT = [
  "You estimate how many hours of work an errand or home task takes for one helper, from its title and description.",
  'Answer with JSON only: {"hours": number, "low": number, "high": number, "what": string}, where low <= hours <= high',
  'and "what" quotes the few words you read the size or duration from.',
  'If the text gives no hint of the size or duration, answer {"hours": null}.',
].join(" ");

/** A reading outside a quarter hour to three days is nonsense for one task. */
const modelHoursField = z.number().min(0.25).max(72);
export const modelHoursSchema = z
  .object({
    hours: modelHoursField,
    low: modelHoursField,
    high: modelHoursField,
    // "what" is quoted in Felix's answer, which names no dollar amount the engine did not give.
    what: z.string().trim().min(1).max(200).refine((w) => dollarFiguresInCents(w).length === 0),
  })
  .refine((r) => r.low <= r.hours && r.hours <= r.high);

/** The model's JSON answer, with or without a markdown code fence, checked; null when unusable. */
export function parseModelHours(content: string): ModelHours | null {
  const unfenced = content.replace(/^```(?:json)?\s*|\s*```$/g, "");
  try {
    const parsed = modelHoursSchema.safeParse(JSON.parse(unfenced));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function chatCompletionsUrl(url: string): string {
  const trimmed = url.replace(/\/+$/, "");
  return trimmed.endsWith("/chat/completions") ? trimmed : `${trimmed}/chat/completions`;
}

/** Dollar amounts written in a text ("$1,234.50", "$20", "20 dollars"), in cents. */
export function dollarFiguresInCents(text: string): number[] {
  const figures: number[] = [];
  const pattern = /\$\s?(\d[\d,]*(?:\.\d+)?)|(\d[\d,]*(?:\.\d+)?)\s?(?:dollars|usd)\b/gi;
  for (const match of text.matchAll(pattern)) {
    const digits = (match[1] ?? match[2] ?? "").replaceAll(",", "");
    const value = Number(digits);
    if (digits !== "" && Number.isFinite(value)) figures.push(Math.round(value * 100));
  }
  return figures;
}

export function onlyKnownFigures(text: string, figures: readonly number[]): boolean {
  const known = new Set(figures.map((f) => Math.round(f * 100)));
  return dollarFiguresInCents(text).every((cents) => known.has(cents));
}

export function createPhraser(options: PhraserOptions): Phraser {
  const { url, model } = options;
  if (!url || !model) return { phrase: async ({ draft }) => draft, readHours: async () => null };
  const endpoint = chatCompletionsUrl(url);
  const timers = options.timers ?? systemTimers;
  /** The model's text answer to a system prompt and a user message; throws on any failure. */
  async function complete(system: string, user: string): Promise<string> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    const response = await fetch(endpoint, {
      method: "POST",
      headers,
      signal: timers.timeout(options.timeoutMs),
      body: JSON.stringify({
        model,
        temperature: 0.2,
        messages: [
          { role: "system", content: system },
          { role: "user", content: user },
        ],
      }),
    });
    if (!response.ok) throw new Error(`language model answered ${response.status}`);
    const text = readContent(await response.json());
    if (!text) throw new Error("language model answer has no choices[0].message.content");
    return text;
  }
  return {
    async phrase({ question, draft, facts, figures }) {
      try {
        const text = await complete(SYSTEM_PROMPT, `Facts:\n${JSON.stringify(facts)}\n\nDraft answer:\n${draft}\n\nQuestion:\n${question}`);
        if (!onlyKnownFigures(text, figures)) {
          options.log?.warn({ text }, "language model named a figure the engine did not give; using the built-in answer");
          return draft;
        }
        return text;
      } catch (error) {
        options.log?.warn({ err: error }, "language model failed; using the built-in answer");
        return draft;
      }
    },
    async readHours(text) {
      try {
        const answer = await complete(READING_PROMPT, text);
        const hours = parseModelHours(answer);
        if (!hours) options.log?.info({ answer }, "language model gave no usable hours; using the built-in estimate");
        return hours;
      } catch (error) {
        options.log?.warn({ err: error }, "language model failed to read hours; using the built-in estimate");
        return null;
      }
    },
  };
}

function readContent(body: unknown): string | null {
  if (typeof body !== "object" || body === null || !("choices" in body) || !Array.isArray(body.choices)) return null;
  const first: unknown = body.choices[0];
  if (typeof first !== "object" || first === null || !("message" in first)) return null;
  const { message } = first;
  if (typeof message !== "object" || message === null || !("content" in message)) return null;
  return typeof message.content === "string" && message.content.trim() !== "" ? message.content.trim() : null;
}
