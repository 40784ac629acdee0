import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvField, type Field } from "./csv.js";

// The CSV a spreadsheet opens runs no formula, whichever separator it is set to (OWASP's CSV
// injection advice; csv.ts says why each character is guarded).

const FORMULA_START = ["=", "+", "-", "@", "\t", "\r"];
const SEPARATORS = [",", ";", "\t", "\r", "\n"];

/** Text heavy in what matters here, and any text at all. */
const hostileText = fc.oneof(
  fc.string({ unit: fc.constantFrom("=", "+", "-", "@", "\t", "\r", "\n", ",", ";", '"', " ", "'", "a", "1", "("), maxLength: 30 }),
  fc.string({ unit: "binary", maxLength: 30 }),
);

const line = (fields: Field[]) => fields.map(csvField).join(",");

/** One RFC 4180 field back to its value; throws when `field` is not exactly one field. */
function parseField(field: string): string {
  if (!field.startsWith('"')) {
    if (/[",\r\n]/.test(field)) throw new Error(`unquoted field with a special character: ${JSON.stringify(field)}`);
    return field;
  }
  const inner = field.slice(1, -1);
  if (!field.endsWith('"') || field.length < 2 || /(^|[^"])"("")*($|[^"])/.test(inner)) throw new Error(`not one quoted field: ${JSON.stringify(field)}`);
  return inner.replaceAll('""', '"');
}

describe("csvField", () => {
  it("starts no spreadsheet cell with a formula character, whatever the separator it splits on", () => {
    fc.assert(
      fc.property(fc.array(hostileText, { minLength: 1, maxLength: 5 }), (fields) => {
        const written = line(fields);
        // Some spreadsheets drop the spaces and quote marks a cell starts with.
        const formulas = SEPARATORS.flatMap((separator) => written.split(separator)).filter((cell) => FORMULA_START.includes(cell.replace(/^[ "]+/, "").charAt(0)));
        expect(formulas, written).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });

  it("writes any text as one field that reads back as it was, apart from the apostrophes of the guard", () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        expect(parseField(csvField(text)).replaceAll("'", "")).toBe(text.replaceAll("'", ""));
      }),
      { numRuns: 2000 },
    );
  });

  it("leaves ordinary text as it is", () => {
    const ordinary = fc
      .string({ unit: fc.constantFrom(..."abcXYZ019 .:!?()/'&=+-@"), maxLength: 40 })
      .filter((text) => !FORMULA_START.includes(text.trimStart().charAt(0)));
    fc.assert(
      fc.property(ordinary, (text) => {
        expect(csvField(text)).toBe(text);
      }),
    );
    expect(csvField("Pick up - drop off @ 5pm, =cheap")).toBe(`"Pick up - drop off @ 5pm, '=cheap"`);
  });

  it("guards formulas behind every separator a spreadsheet may use", () => {
    expect(csvField("x;=1+1")).toBe(`"x;'=1+1"`);
    expect(csvField("x,=1+1")).toBe(`"x,'=1+1"`);
    expect(csvField("x\t@SUM(A1)")).toBe(`"x\t'@SUM(A1)"`);
    expect(csvField("a;  -2+3")).toBe(`"a;  '-2+3"`);
    expect(csvField('a;"=1"')).toBe(`"a;""'=1"""`);
    expect(csvField("line\n+1")).toBe(`"line\n'+1"`);
    expect(csvField("a;\t=1")).toBe(`"a;'\t'=1"`);
  });

  it("keeps the product's own amounts as numbers a spreadsheet adds up, refunds and payouts too", () => {
    expect(csvField({ cents: -1250 })).toBe("-12.50");
    expect(csvField({ cents: 5 })).toBe("0.05");
    expect(line(["Refund", { cents: -1250 }, 7])).toBe("Refund,-12.50,7");
    expect(csvField(null)).toBe("");
  });
});
