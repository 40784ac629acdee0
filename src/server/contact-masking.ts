import { createRequire } from "node:module";
import { findPhoneNumbersInText } from "libphonenumber-js";
import { LinkifyIt } from "linkify-it";
import { normalise, replaceTraced, type Traced } from "./traced-text.js";

// The one masking of contact details in text that others read before a task is paid: public
// questions and answers, offers, task titles and descriptions, provider bios, and the chat until
// the poster pays (docs/product.md, Contact details are masked; docs/decisions/070-contact-masking.md).
// Phone numbers, e-mail addresses and links become a visible placeholder, so a deal cannot be taken
// off Errandly, and the rest of the text stays as it was written.
//
// The text is first normalised (NFKC, format and other invisible characters dropped, every script's
// digits read as 0-9), and each normalised character remembers which characters of the original it
// came from (traced-text.ts), so the placeholder replaces exactly the original characters. Phone numbers are found
// by libphonenumber-js and by runs of digits and number words; links and e-mail addresses by
// linkify-it with the full list of top-level domains, also when spelled out ("sam at gmail dot
// com", "evil [dot] com", "hxxp://"). Server only: the libraries stay out of the web's bundle.
// Every step is a single forward pass or a library scan, so the cost grows with the length.

export const HIDDEN = { phone: "[hidden: phone]", email: "[hidden: e-mail]", link: "[hidden: link]" } as const;
type Kind = keyof typeof HIDDEN;

/** A phone number has at least this many digits (a US local number); prices, dates and house numbers have fewer. */
const PHONE_DIGITS = 7;

interface Span {
  start: number;
  end: number;
  kind: Kind;
}

/** The original range of units [start, end) of a traced text. */
function original(t: Traced, start: number, end: number, kind: Kind): Span {
  return { start: t.from[start] ?? 0, end: t.to[end - 1] ?? 0, kind };
}

// ---------------------------------------------------------------------------------------------
// Links and e-mail addresses

// Defanged and bracketed forms read as what they stand for: "sam (at) gmail [dot] com", "evil dot
// com", "hxxps://", "x[:]//". A bracketed "(at)" takes its spaces with it; the lookbehinds start
// each whitespace run once, so no run is scanned again from each of its characters. A spelled
// "dot" after a little word is the word ("the dot com era", "and dot the i's").
const DEFANGED = new RegExp(
  [
    String.raw`(?<at>(?<!\s)\s*[[({<]\s*(?:at|@)\s*[\])}>]\s*)`,
    String.raw`(?<dot>(?<!\s)\s*[[({<]\s*(?:dot|\.)\s*[\])}>]\s*|(?<=[\p{L}\p{N}])(?<!\b(?:the|a|an|and|or|of|to|in|on|at|my|your|our|his|her|its|this|that|polka))\s+(?:dot|\.)\s+)`,
    String.raw`(?<scheme>h(?:xx|\*\*)p)`,
    String.raw`(?<colon>\[:\])`,
  ].join("|"),
  "giu",
);
/** An "@" with spaces round it: an address when a real domain follows. */
const SPACED_AT = /(?<!\s)\s+@\s*|@\s+/g;
/** "at" spelled out: an ordinary word, an address only before a mail service ("sam at gmail"). */
const SPELLED_AT = /(?<!\s)\s+at\s+/gi;

/** Mail services people name without a domain ("sam at gmail"), where "at" alone proves nothing. */
const MAIL_SERVICES = new Set(["gmail", "googlemail", "yahoo", "ymail", "hotmail", "outlook", "icloud", "aol", "proton", "protonmail", "gmx", "yandex", "zoho", "msn"]);

// The full list of top-level domains (the `tlds` package is JSON, which an ES module imports only
// with an attribute): "t.me", "wa.me", "discord.gg" and "mysite.plumbing" are links too.
const require = createRequire(import.meta.url);
const TOP_LEVEL_DOMAINS = require("tlds") as string[];
const linkify = new LinkifyIt({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: true, tlds: TOP_LEVEL_DOMAINS });

const LOCAL_PART = /[\p{L}\p{N}_.+-]/u;
const LABEL = /[\p{L}\p{N}_-]/u;
const WORD = /\S+/g;
const LINK_WORD = /https?|:\/\/|www\./i;

/** Links and addresses linkify-it finds, with their top-level domain checked against the full list. */
function linkified(t: Traced, spans: Span[], emailsOnly: boolean): void {
  if (!linkify.test(t.text)) return;
  for (const m of linkify.match(t.text) ?? []) {
    const email = m.schema === "mailto:";
    if (email || !emailsOnly) spans.push(original(t, m.index, m.lastIndex, email ? "email" : "link"));
  }
}

/**
 * Each "@" between a name and a domain, written without spaces: "me@home", "sam@gmail", "a@b.c".
 * With `services` only those whose domain is a known mail service ("sam at gmail"). Scans out from
 * each "@", so the cost is the length of the text.
 */
function atSigns(t: Traced, spans: Span[], services: boolean): void {
  const text = t.text;
  for (let at = text.indexOf("@"); at !== -1; at = text.indexOf("@", at + 1)) {
    let start = at;
    while (start > 0 && LOCAL_PART.test(text[start - 1] ?? "")) start -= 1;
    let end = at + 1;
    while (end < text.length && LABEL.test(text[end] ?? "")) end += 1;
    const first = text.slice(at + 1, end).toLowerCase();
    while (text[end] === "." && LABEL.test(text[end + 1] ?? "")) {
      end += 1;
      while (end < text.length && LABEL.test(text[end] ?? "")) end += 1;
    }
    if (start === at || first === "" || (services && !MAIL_SERVICES.has(first))) continue;
    spans.push(original(t, start, end, "email"));
  }
}

function findLinksAndEmails(normalised: Traced, spans: Span[]): void {
  const plain = replaceTraced(normalised, DEFANGED, (m) => (m.groups?.["at"] ? "@" : m.groups?.["dot"] ? "." : m.groups?.["scheme"] ? "http" : ":"));
  for (const word of plain.text.matchAll(WORD)) {
    if (LINK_WORD.test(word[0])) spans.push(original(plain, word.index, word.index + word[0].length, "link"));
  }
  atSigns(plain, spans, false);
  linkified(plain, spans, false);
  const spaced = replaceTraced(plain, SPACED_AT, () => "@");
  if (spaced !== plain) {
    linkified(spaced, spans, true);
    atSigns(spaced, spans, true);
  }
  const spelled = replaceTraced(plain, SPELLED_AT, () => "@");
  if (spelled !== plain) atSigns(spelled, spans, true);
}

// ---------------------------------------------------------------------------------------------
// Phone numbers

/** Number words and how many digits each stands for ("twelve" is two). */
const NUMBER_WORDS = new Map<string, number>([
  ...["zero", "oh", "o", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"].map((w) => [w, 1] as const),
  ...["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"].map((w) => [w, 2] as const),
  ...["twenty", "thirty", "forty", "fourty", "fifty", "sixty", "seventy", "eighty", "ninety"].map((w) => [w, 2] as const),
]);
const TENS = new Set(["twenty", "thirty", "forty", "fourty", "fifty", "sixty", "seventy", "eighty", "ninety"]);
const REPEATS = new Map([
  ["double", 2],
  ["triple", 3],
]);

/**
 * What a number is not: a date (2026-05-12, 12.05.2026), a range of years (2025-2026), a ZIP+4
 * code (21201-1234), an article number (802.145.49), a decimal (45.00, 10.30), an ordinal (5th).
 * Each stops a run of digits instead of joining it. Tried at the first digit of a group only.
 */
const NOT_A_PHONE = new RegExp(
  [
    String.raw`(?<![\d.-])(?<ymd>\d{4}(?<s1>[-.])(?<m1>\d{1,2})\k<s1>(?<d1>\d{1,2}))(?!\d|[-.]\d)`,
    String.raw`(?<![\d.-])(?<dmy>(?<a>\d{1,2})(?<s2>[-.])(?<b>\d{1,2})\k<s2>(?:\d{4}|\d{2}))(?!\d|[-.]\d)`,
    String.raw`(?<![\d.-])(?<years>(?:19|20)\d{2}\s*-\s*(?:(?:19|20)\d{2}|\d{2}))(?!\d|[-.]\d)`,
    String.raw`(?<![\d.-])(?<zip>\d{5}-\d{4})(?!\d|[-.]\d)`,
    // An IKEA article number (802.145.49): assembling furniture is a common task.
    String.raw`(?<![\d.-])(?<article>\d{3}\.\d{3}\.\d{2})(?!\d|[-.]\d)`,
    // A price or a time of at most five whole digits: a longer "number" with a decimal is no price.
    String.raw`(?<![\d.])(?<decimal>\d{1,5}\.\d{1,2})(?!\d|\.\d)`,
    String.raw`(?<ordinal>\d{1,3}(?:st|nd|rd|th))(?![\p{L}\d])`,
  ].join("|"),
  "uy",
);
/** One piece of the text: digits, a word, separators between the groups of a number, or anything else. */
const PIECE = /(?<digits>\d+)|(?<word>\p{L}+)|(?<space>[\s.\-()+_]+)|(?<other>[^])/uy;

/** Whether a match of NOT_A_PHONE stands: a date's month and day must be ones. */
function stopsRun(m: RegExpExecArray): boolean {
  const g = m.groups ?? {};
  const month = (s: string | undefined) => Number(s) >= 1 && Number(s) <= 12;
  const day = (s: string | undefined) => Number(s) >= 1 && Number(s) <= 31;
  if (g["ymd"]) return month(g["m1"]) && day(g["d1"]);
  if (g["dmy"]) return (month(g["a"]) && day(g["b"])) || (day(g["a"]) && month(g["b"]));
  return true;
}

/**
 * Days or months and then a year, in digits ("Dec 20-27 2026", "12 14 2026"): a date, not a number
 * to call. A phone number ending in 2026 has longer groups before it ("410 555 2026").
 */
function daysAndYear(groups: string[]): boolean {
  const year = groups.at(-1) ?? "";
  return /^(?:19|20)\d{2}$/.test(year) && groups.length <= 4 && groups.slice(0, -1).every((g) => /^\d{1,2}$/.test(g));
}

/**
 * Runs of digits and number words with only spaces, dots, dashes, brackets and the like between
 * them, or commas after a number word ("410  555  1234", "4 1 0 5 5 5", "four one zero, five five
 * five, 1234", "double five"): a phone number when the run stands for 7 digits or more.
 */
function digitRuns(t: Traced, spans: Span[]): void {
  const text = t.text;
  let run: { start: number; end: number; digits: number; repeat: number; afterTens: boolean; afterWord: boolean; groups: string[] } | null = null;
  const close = () => {
    if (run && run.digits >= PHONE_DIGITS && !daysAndYear(run.groups)) {
      let { start, end } = run;
      // "+1 (410) 555-1234": the sign and brackets round the digits go with them.
      while (start > 0 && (text[start - 1] === "+" || text[start - 1] === "(")) start -= 1;
      if (text[end] === ")") end += 1;
      spans.push(original(t, start, end, "phone"));
    }
    run = null;
  };
  let pos = 0;
  while (pos < text.length) {
    NOT_A_PHONE.lastIndex = pos;
    const barrier = /\d/.test(text[pos] ?? "") ? NOT_A_PHONE.exec(text) : null;
    if (barrier && stopsRun(barrier)) {
      close();
      pos = NOT_A_PHONE.lastIndex;
      continue;
    }
    PIECE.lastIndex = pos;
    const piece = PIECE.exec(text);
    if (!piece) break;
    const groups = piece.groups ?? {};
    const end = pos + piece[0].length;
    const word = groups["word"]?.toLowerCase();
    const digits = groups["digits"] !== undefined ? piece[0].length : word !== undefined ? NUMBER_WORDS.get(word) : undefined;
    if (digits !== undefined) {
      run ??= { start: pos, end, digits: 0, repeat: 1, afterTens: false, afterWord: false, groups: [] };
      run.groups.push(word ?? piece[0]);
      // "thirty four" is 34, two digits, not three.
      const joinsTens = run.afterTens && word !== undefined && NUMBER_WORDS.get(word) === 1 && word !== "zero" && word !== "oh" && word !== "o";
      run.digits += joinsTens ? 0 : digits + run.repeat - 1;
      run.repeat = 1;
      run.afterTens = word !== undefined && TENS.has(word);
      run.afterWord = word !== undefined;
      run.end = end;
    } else if (word !== undefined && REPEATS.has(word)) {
      run ??= { start: pos, end: pos, digits: 0, repeat: 1, afterTens: false, afterWord: true, groups: [] };
      run.groups.push(word);
      run.repeat = REPEATS.get(word) ?? 1;
      run.afterTens = false;
    } else if (groups["space"] === undefined && !(piece[0] === "," && run?.afterWord)) {
      // Spoken digits go in commas ("four one zero, five five five"); listed numbers do too ("8, 10, 12").
      close();
    }
    pos = end;
  }
  close();
}

/** Digits and what a written phone number holds between them: "+1 (410) 555-1234 ext. 22", "410/555 1234". */
const PHONE_SHAPED = /[+([]*\d[\d\s().\-+/[\]]*(?:(?:ext\.?|x|#)\s*\d{1,6})?/gi;
/** E.164 numbers have at most 15 digits; the library reads no longer stretch (the runs do). */
const MAX_PHONE_DIGITS = 15;
const MAX_PHONE_LENGTH = 40;
/** Stretches the library reads in one text, at most: a text of numbers is left to the runs. */
const MAX_LIBRARY_READS = 40;

function digitCount(text: string): number {
  let n = 0;
  for (const c of text) if (c >= "0" && c <= "9") n += 1;
  return n;
}

/**
 * libphonenumber-js on each stretch shaped like a phone number, with the US as the default country.
 * Fed stretch by stretch, not the whole text: on a text of digits and spaces the library's matcher
 * spends about 50 µs a character (2,000 characters of "1 1 1 ..." took 100 ms); a stretch of 40
 * characters costs it a few microseconds.
 */
function libraryPhones(t: Traced, spans: Span[]): void {
  let reads = 0;
  for (const m of t.text.matchAll(PHONE_SHAPED)) {
    const stretch = m[0].trimEnd();
    const digits = digitCount(stretch);
    if (digits < PHONE_DIGITS || digits > MAX_PHONE_DIGITS || stretch.length > MAX_PHONE_LENGTH) continue;
    if (++reads > MAX_LIBRARY_READS) return;
    // extended: possible numbers too ("555-123-4567" is no valid number, but it is one to hide).
    for (const found of findPhoneNumbersInText(stretch, { defaultCountry: "US", extended: true })) {
      spans.push(original(t, m.index + found.startsAt, m.index + found.endsAt, "phone"));
    }
  }
}

// ---------------------------------------------------------------------------------------------

const PRIORITY: Record<Kind, number> = { email: 0, link: 1, phone: 2 };

/** Overlapping finds become one, named by the longest (an address holding digits is an address). */
function merge(spans: Span[]): Span[] {
  const sorted = spans.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: { start: number; end: number; kind: Kind; length: number }[] = [];
  for (const s of sorted) {
    const last = merged.at(-1);
    const length = s.end - s.start;
    if (last && s.start < last.end) {
      if (length > last.length || (length === last.length && PRIORITY[s.kind] < PRIORITY[last.kind])) {
        last.kind = s.kind;
        last.length = length;
      }
      last.end = Math.max(last.end, s.end);
    } else {
      merged.push({ ...s, length });
    }
  }
  return merged;
}

function maskOnce(input: string): string {
  const normalised = normalise(input);
  const spans: Span[] = [];
  findLinksAndEmails(normalised, spans);
  libraryPhones(normalised, spans);
  digitRuns(normalised, spans);
  let out = "";
  let pos = 0;
  for (const span of merge(spans)) {
    out += input.slice(pos, span.start) + HIDDEN[span.kind];
    pos = span.end;
  }
  return out + input.slice(pos);
}

/**
 * A placeholder's edges can bring out what was glued to a masked detail ("1234567t.me" holds a
 * link once its digits are gone), so a masked text is read again until nothing more is found.
 */
const MAX_PASSES = 3;

/** The text with phone numbers, e-mail addresses and links replaced by a visible placeholder. */
export function maskContactDetails(input: string): string {
  let text = input;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const masked = maskOnce(text);
    if (masked === text) break;
    text = masked;
  }
  return text;
}
