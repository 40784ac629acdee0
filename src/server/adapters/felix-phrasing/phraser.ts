import type { ModelHours } from "../../../shared/felix-work.js";

// How Felix's answer is worded. The embedded default keeps the built-in composer's text; with
// FELIX_LLM_URL a language model behind an OpenAI-compatible chat-completions API rewords it.
// The engine's figures are facts the model must not change: an answer naming a dollar amount
// that is not among them is thrown away, as is a slow or failed one, and the built-in text is
// used (docs/decisions/012-felix-conversation-and-language-model.md). The same model may read the
// hours of a task the built-in reader could not read; a reading outside 15 minutes to 3 days, a
// malformed, slow or failed one is dropped and Felix goes on as if there were no model
// (docs/decisions/054-felix-prices-the-works-own-hours.md). The adapters are
// picked by create-phraser.ts.

export interface PhrasingInput {
  /** What the person asked. */
  question: string;
  /** The built-in composer's answer; returned whenever the model cannot be trusted. */
  draft: string;
  /** The engine's results, given to the model as JSON. */
  facts: Record<string, unknown>;
  /** Every dollar amount the answer may name. */
  figures: readonly number[];
}

export interface Phraser {
  phrase(input: PhrasingInput): Promise<string>;
  /** The hours of work a task's text describes, or null when the model is absent or cannot tell. */
  readHours(text: string): Promise<ModelHours | null>;
}
