import type { OptionsType, TranslationKeys } from "@zxcvbn-ts/core";

// The one password-strength rule, read by the server's check (features/auth/password-policy.ts)
// and by the web's strength meter, so the meter and the server agree on what is accepted.
// This file imports no dictionary: the caller passes @zxcvbn-ts/language-common in, so the word
// lists stay out of the web's main chunk (docs/decisions/022-sign-in-throttling-and-password-policy.md).

/** zxcvbn scores 0–4; a password needs at least this ("Fair": about 10^8 guesses or more). */
export const PASSWORD_MIN_SCORE = 3;

/** zxcvbn looks at this many characters; longer passwords are judged by their start (bounded cost). */
export const PASSWORD_STRENGTH_MAX_LENGTH = 40;

export const PASSWORD_STRENGTH_LABELS = ["Too weak", "Too weak", "Weak", "Fair", "Strong"] as const;
export type PasswordStrengthLabel = (typeof PASSWORD_STRENGTH_LABELS)[number];

export function passwordStrengthLabel(score: number): PasswordStrengthLabel {
  return PASSWORD_STRENGTH_LABELS[Math.max(0, Math.min(4, Math.round(score)))] ?? "Too weak";
}

export const PASSWORD_ADVICE = "choose one that is hard to guess, for example three or four unrelated words.";

/** Plain-English feedback for zxcvbn (its own texts come as keys without a language package). */
export const passwordStrengthTranslations: TranslationKeys = {
  warnings: {
    straightRow: "Straight rows of keys on your keyboard are easy to guess.",
    keyPattern: "Short keyboard patterns are easy to guess.",
    simpleRepeat: 'Repeated characters like "aaa" are easy to guess.',
    extendedRepeat: 'Repeated groups of characters like "abcabcabc" are easy to guess.',
    sequences: 'Common sequences of characters like "abc" are easy to guess.',
    recentYears: "Recent years are easy to guess.",
    dates: "Dates are easy to guess.",
    topTen: "This is one of the most used passwords.",
    topHundred: "This is a very often used password.",
    common: "This is a commonly used password.",
    similarToCommon: "This is similar to a commonly used password.",
    wordByItself: "Single words are easy to guess.",
    namesByThemselves: "Single names or surnames are easy to guess.",
    commonNames: "Common names and surnames are easy to guess.",
    userInputs: "It should not contain your name, your e-mail or the site's name.",
    pwned: "This password appeared in a data breach.",
  },
  suggestions: {
    l33t: "Avoid predictable letter substitutions like '@' for 'a'.",
    reverseWords: "Avoid reversed spellings of common words.",
    allUppercase: "Capitalize some, but not all letters.",
    capitalization: "Capitalize more than the first letter.",
    dates: "Avoid dates and years that are associated with you.",
    recentYears: "Avoid recent years.",
    associatedYears: "Avoid years that are associated with you.",
    sequences: "Avoid common character sequences.",
    repeated: "Avoid repeated words and characters.",
    longerKeyboardPattern: "Use longer keyboard patterns and change typing direction multiple times.",
    anotherWord: "Add more words that are less common.",
    useWords: "Use multiple words, but avoid common phrases.",
    noNeed: "You can create strong passwords without using symbols, numbers, or uppercase letters.",
    pwned: "If you use this password elsewhere, you should change it.",
  },
  timeEstimation: {
    ltSecond: "less than a second",
    second: "{base} second",
    seconds: "{base} seconds",
    minute: "{base} minute",
    minutes: "{base} minutes",
    hour: "{base} hour",
    hours: "{base} hours",
    day: "{base} day",
    days: "{base} days",
    month: "{base} month",
    months: "{base} months",
    year: "{base} year",
    years: "{base} years",
    centuries: "centuries",
  },
};

/** The shape of @zxcvbn-ts/language-common that the options need. */
export interface CommonLanguagePackage {
  dictionary: Record<string, string[]>;
  adjacencyGraphs: OptionsType["graphs"];
}

export function passwordStrengthOptions(common: CommonLanguagePackage): OptionsType {
  return {
    dictionary: common.dictionary,
    graphs: common.adjacencyGraphs,
    translations: passwordStrengthTranslations,
    maxLength: PASSWORD_STRENGTH_MAX_LENGTH,
  };
}

/**
 * Words a password must not lean on: the person's names, their e-mail and its parts, and the
 * product's own name (the first things an attacker who knows the account tries).
 */
export function passwordUserInputs(person: { email?: string; firstName?: string; lastName?: string }): string[] {
  const inputs = new Set<string>(["errandly"]);
  const add = (value: string | undefined) => {
    const word = value?.trim().toLowerCase();
    if (word && word.length >= 3) inputs.add(word);
  };
  add(person.firstName);
  add(person.lastName);
  const email = person.email?.trim().toLowerCase() ?? "";
  add(email);
  const [local, domain] = email.split("@");
  add(local);
  for (const part of (local ?? "").split(/[^a-z0-9]+/)) add(part);
  add(domain?.split(".")[0]);
  return [...inputs];
}

/** What is wrong with a password given its zxcvbn result, in words for the person; null when it is good enough. */
export function passwordStrengthProblem(result: { score: number; feedback: { warning: string | null } }): string | null {
  if (result.score >= PASSWORD_MIN_SCORE) return null;
  const warning = result.feedback.warning;
  const { warnings } = passwordStrengthTranslations;
  const common = [warnings.topTen, warnings.topHundred, warnings.common, warnings.similarToCommon, warnings.pwned];
  if (warning !== null && common.includes(warning)) return `This password is too common: ${PASSWORD_ADVICE}`;
  if (warning === warnings.userInputs) return `This password is built from your name or e-mail: ${PASSWORD_ADVICE}`;
  if (warning) return `This password is too easy to guess. ${warning} Choose one that is hard to guess, for example three or four unrelated words.`;
  return `This password is too easy to guess: ${PASSWORD_ADVICE}`;
}
