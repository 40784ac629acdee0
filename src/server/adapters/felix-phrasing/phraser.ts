// How Felix's answer is worded. The embedded default keeps the built-in composer's text; with
// FELIX_LLM_URL a language model behind an OpenAI-compatible chat-completions API rewords it.
// The engine's figures are facts the model must not change: an answer naming a dollar amount
// that is not among them is thrown away, as is a slow or failed one, and the built-in text is
// used (docs/decisions/012-felix-conversation-and-language-model.md). The adapters are
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
}
