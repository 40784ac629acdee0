import { Readable } from "node:stream";

// CSV for the provider's earnings and the admin's ledger export (RFC 4180: fields with a comma,
// quote or line break are quoted, quotes doubled). A field a spreadsheet would read as a formula
// (starting with =, +, -, @, a tab or a carriage return) gets a leading apostrophe first, so a task
// title such as "=HYPERLINK(...)" stays text (OWASP's CSV injection advice). Amounts are ours, given
// as `{ cents }` and written as "-12.50", a number a spreadsheet adds up; they skip that guard.

export type Field = string | number | null | { cents: number };

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: Field): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  if (typeof value === "object") return (value.cents / 100).toFixed(2);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
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
