import type { FastifyBaseLogger } from "fastify";
import { systemTimers, type Timers } from "../clock/timers.js";
import type { Phraser } from "./phraser.js";

// The phraser port (phraser.ts): the built-in text, or a language model whose answer is checked
// against the engine's figures (docs/decisions/012-felix-conversation-and-language-model.md).

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
  if (!url || !model) return { phrase: async ({ draft }) => draft };
  const endpoint = chatCompletionsUrl(url);
  const timers = options.timers ?? systemTimers;
  return {
    async phrase({ question, draft, facts, figures }) {
      try {
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
              { role: "system", content: SYSTEM_PROMPT },
              {
                role: "user",
                content: `Facts:\n${JSON.stringify(facts)}\n\nDraft answer:\n${draft}\n\nQuestion:\n${question}`,
              },
            ],
          }),
        });
        if (!response.ok) throw new Error(`language model answered ${response.status}`);
        const text = readContent(await response.json());
        if (!text) throw new Error("language model answer has no choices[0].message.content");
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
