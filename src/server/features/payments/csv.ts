import { Readable } from "node:stream";

// CSV for the provider's earnings and the admin's ledger export, the product's only CSV files
// (RFC 4180: fields with a comma, quote or line break are quoted, quotes doubled).
//
// Formulas (OWASP's CSV injection advice): a spreadsheet runs a cell that starts with =, +, -, @, a
// tab or a carriage return. A text field is guarded where such a character could start a cell: at
// its start, and after any character a spreadsheet may split cells on: our comma, but also the
// semicolon or tab of a spreadsheet set to another separator (most of Europe uses ";") and a line
// break, as one that ignores our quotes ends the row there; spaces and quote marks in between are
// skipped, as some spreadsheets trim them. A title "x;=1+1" is one cell here and two in a
// spreadsheet set to ";", the second "=1+1". Each guarded character gets an apostrophe before it,
// which spreadsheets read as "text follows", and a guarded field is always quoted.
//
// Amounts are ours, given as `{ cents }` and written as "-12.50": never guarded, so that a refund
// or a payout stays a number a spreadsheet adds up ("'-12.50" would be text, and the export's sums
// would skip it). Nothing a person typed reaches them: they are integer cents formatted here, so
// the only characters are digits, one point and a leading minus. Numbers (entry ids) are ours too.

export type Field = string | number | null | { cents: number };

const FORMULA_START = new Set(["=", "+", "-", "@", "\t", "\r"]);
const CELL_BREAK = new Set([",", ";", "\t", "\r", "\n"]);
const SKIPPED_AT_CELL_START = new Set([" ", '"']);

/** `text` with an apostrophe before each formula character that could start a spreadsheet cell. */
function guardFormulas(text: string): string {
  let out = "";
  let cellStart = true;
  for (const char of text) {
    if (cellStart && FORMULA_START.has(char)) out += "'";
    out += char;
    if (CELL_BREAK.has(char)) cellStart = true;
    else if (!SKIPPED_AT_CELL_START.has(char)) cellStart = false;
  }
  return out;
}

export function csvField(value: Field): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  if (typeof value === "object") return (value.cents / 100).toFixed(2);
  const text = guardFormulas(value);
  return text !== value || /[",;\t\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const line = (fields: Field[]) => `${fields.map(csvField).join(",")}\r\n`;

/**
 * The header, then each page of rows as `pages` yields it: the export streams instead of holding
 * every row at once (the admin's ledger can be long).
 */
export function csvStream(header: string[], pages: AsyncIterable<Field[][]>): Readable {
  return Readable.from(
    (async function* lines() {
      yield line(header);
      for await (const rows of pages) {
        if (rows.length > 0) yield rows.map(line).join("");
      }
    })(),
  );
}
