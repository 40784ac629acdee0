// Text normalised for reading contact details in it, each unit traced to the characters of the
// original it came from, so what is found in the normalised text is replaced in the original
// (contact-masking.ts; docs/decisions/070-contact-masking.md).

/** Text with, for each UTF-16 unit, the range of the original text it stands for: [from[i], to[i]). */
export interface Traced {
  text: string;
  from: number[];
  to: number[];
}

// Zero-width spaces, joiners, soft hyphens, bidirectional controls, variation selectors, fillers.
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;
const INVISIBLE_ALL = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{M}]/gu;
const MARK_OR_INVISIBLE = /[\p{M}\p{Cf}\p{Default_Ignorable_Code_Point}]/u;
const NON_ASCII_DIGIT = /(?![0-9])\p{Nd}/gu;
const DECIMAL_DIGIT = /\p{Nd}/u;

/** A decimal digit of any script as 0-9: Unicode keeps each script's digits 0 to 9 in a row. */
function asciiDigit(digit: string): string {
  const cp = digit.codePointAt(0) ?? 0;
  let zero = cp;
  while (zero > 0 && DECIMAL_DIGIT.test(String.fromCodePoint(zero - 1))) zero -= 1;
  return String((cp - zero) % 10);
}

function codePointLength(text: string, i: number): number {
  const cp = text.codePointAt(i) ?? 0;
  return cp > 0xffff ? 2 : 1;
}

/**
 * NFKC per character and its combining marks (full-width "４" is "4", "＠" is "@"), marks and
 * invisible characters dropped, digits of any script as 0-9; each unit traced to its original.
 */
export function normalise(input: string): Traced {
  let text = "";
  const from: number[] = [];
  const to: number[] = [];
  let i = 0;
  while (i < input.length) {
    // ASCII followed by ASCII (most text) is itself: no mark to join, nothing to normalise.
    if (input.charCodeAt(i) < 0x80 && !(input.charCodeAt(i + 1) >= 0x80)) {
      text += input[i];
      from.push(i);
      to.push(i + 1);
      i += 1;
      continue;
    }
    const start = i;
    i += codePointLength(input, i);
    while (i < input.length && MARK_OR_INVISIBLE.test(String.fromCodePoint(input.codePointAt(i) ?? 0))) i += codePointLength(input, i);
    const cluster = input.slice(start, i);
    if (INVISIBLE.test(String.fromCodePoint(cluster.codePointAt(0) ?? 0))) {
      // An invisible character does not start a character; marks after it are dropped with it.
      continue;
    }
    const plain = cluster.normalize("NFKC").replace(INVISIBLE_ALL, "").replace(NON_ASCII_DIGIT, asciiDigit);
    text += plain;
    for (let k = 0; k < plain.length; k++) {
      from.push(start);
      to.push(i);
    }
  }
  return { text, from, to };
}

/**
 * The traced text with each match of `pattern` (global, never empty) replaced by `replacement`;
 * the same object when nothing matched, so a caller can skip reading it twice.
 */
export function replaceTraced(t: Traced, pattern: RegExp, replacement: (match: RegExpExecArray) => string): Traced {
  pattern.lastIndex = 0;
  const any = pattern.test(t.text);
  // matchAll starts where the pattern's lastIndex stands.
  pattern.lastIndex = 0;
  if (!any) return t;
  let text = "";
  const from: number[] = [];
  const to: number[] = [];
  let last = 0;
  const keep = (end: number) => {
    text += t.text.slice(last, end);
    for (let k = last; k < end; k++) {
      from.push(t.from[k] ?? 0);
      to.push(t.to[k] ?? 0);
    }
  };
  for (const match of t.text.matchAll(pattern)) {
    const end = match.index + match[0].length;
    keep(match.index);
    const put = replacement(match);
    text += put;
    for (let k = 0; k < put.length; k++) {
      from.push(t.from[match.index] ?? 0);
      to.push(t.to[end - 1] ?? 0);
    }
    last = end;
  }
  keep(t.text.length);
  return { text, from, to };
}
