import fc from "fast-check";

// JSON Schema → fast-check arbitraries for the route fuzzer (test/security/route-fuzz.test.ts).
// It reads the schemas @fastify/swagger publishes from the routes' zod schemas (OpenAPI 3.0:
// `nullable`, boolean exclusive bounds) and plain JSON Schema (`type: [..., "null"]`, `const`,
// numeric exclusive bounds), so the fuzzer follows the contracts as they change.
//
// Three flavours: `validValue` stays inside the schema (refinements the schema cannot express,
// like "at most two decimals", are hit often by the integer and cent-valued numbers); `nearValue`
// is mostly valid with a few fields swapped for boundary or wrong-type values, missing required
// fields and extra keys; `junkJson` ignores the schema.

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  nullable?: boolean;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
}

/** A literal piece of JSON text for what JSON.stringify cannot write: `1e999` parses to Infinity. */
class RawJson {
  constructor(readonly text: string) {}
}

/** JSON text of a value that may hold RawJson pieces and own "__proto__" keys. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value)
      .map((k) => `${JSON.stringify(k)}:${toJsonText((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

type JsonType = "string" | "number" | "integer" | "boolean" | "array" | "object";

/**
 * Values by property name and JSON type, mixed with what the schema gives: ids of rows that exist
 * (so handlers go past "not found"), and fields whose rule the published schema lost. OpenAPI 3.0
 * has no `propertyNames`, so a record keyed by an enum arrives as "any keys"; zod's
 * `.pipe(z.email())` shows only its string input side; refinements (a two-letter state) vanish.
 */
export type NamedValues = Record<string, Partial<Record<JsonType, fc.Arbitrary<unknown>>>>;

type Mode = "valid" | "near";

export function validValue(schema: JsonSchema, named: NamedValues = {}): fc.Arbitrary<unknown> {
  return convert(schema, named, "valid");
}

export function nearValue(schema: JsonSchema, named: NamedValues = {}): fc.Arbitrary<unknown> {
  return convert(schema, named, "near");
}

/** Keys that reach Object.prototype or look like privileges when a handler spreads the body. */
const POLLUTING_KEYS = ["__proto__", "constructor", "prototype", "isAdmin", "role", "userId", "id", "status", "verificationStatus"];

const LONG = "A".repeat(20_000);

/** Strings that have broken servers: NUL, lone surrogates, right-to-left overrides, SQL and path tricks. */
export const EVIL_STRINGS: readonly string[] = [
  "",
  " ",
  "\t\n\r",
  "\u0000",
  "abc\u0000def",
  "\ud800",
  "\udfff\ud800",
  "\u202eevil",
  "\ufeff",
  "💥".repeat(64),
  "e\u0301".repeat(40),
  "NaN",
  "Infinity",
  "-Infinity",
  "1e309",
  "-0",
  "0x10",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "' OR '1'='1' --",
  "\\'; drop table users; --",
  "$1",
  "%00",
  "%",
  "../../../../etc/passwd",
  "<script>alert(1)</script>",
  "${7*7}",
  "__proto__",
  LONG,
];

const EVIL_NUMBERS: readonly unknown[] = [
  new RawJson("1e999"),
  new RawJson("-1e999"),
  new RawJson("-0"),
  new RawJson("1e-400"),
  new RawJson("9007199254740993"),
  new RawJson("123456789012345678901234567890"),
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  -0.01,
  -1,
  0,
  0.001,
  0.005,
  1.005,
  12.345,
  5e-324,
  "12",
  "1e3",
  "NaN",
  "",
  null,
  true,
  [1],
];

const WRONG_TYPES: readonly unknown[] = [null, true, false, 0, -1, "", "x", [], [null], {}];

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type) return [schema.type];
  if (schema.properties || schema.additionalProperties) return ["object"];
  if (schema.items) return ["array"];
  return [];
}

function primaryType(schema: JsonSchema): JsonType | undefined {
  return typesOf(schema).find((t): t is JsonType => ["string", "number", "integer", "boolean", "array", "object"].includes(t));
}

function isNullable(schema: JsonSchema): boolean {
  return schema.nullable === true || typesOf(schema).includes("null") || (schema.enum?.includes(null) ?? false);
}

function convert(schema: JsonSchema, named: NamedValues, mode: Mode): fc.Arbitrary<unknown> {
  const base = nonNull(schema, named, mode);
  const withNull = isNullable(schema) ? fc.option(base, { nil: null, freq: 4 }) : base;
  if (mode === "valid") return withNull;
  // One leaf in a dozen goes wrong: an object of twenty fields then keeps most requests a single
  // mistake away from valid, which is where validation bugs hide.
  return fc.oneof({ arbitrary: withNull, weight: 12 }, { arbitrary: evil(schema), weight: 1 });
}

function nonNull(schema: JsonSchema, named: NamedValues, mode: Mode): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) {
    const values = schema.enum.filter((v) => v !== null);
    return values.length > 0 ? fc.constantFrom(...values) : fc.constant(null);
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0) return fc.oneof(...alternatives.map((s) => convert(s, named, mode)));
  if (schema.allOf && schema.allOf.length > 0) return convert(mergeAll(schema.allOf), named, mode);
  switch (primaryType(schema)) {
    case "string":
      return stringValue(schema);
    case "number":
      return numberValue(schema, false);
    case "integer":
      return numberValue(schema, true);
    case "boolean":
      return fc.boolean();
    case "array":
      return arrayValue(schema, named, mode);
    case "object":
      return objectValue(schema, named, mode);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function mergeAll(parts: JsonSchema[]): JsonSchema {
  return parts.reduce<JsonSchema>(
    (acc, part) => ({
      ...acc,
      ...part,
      properties: { ...acc.properties, ...part.properties },
      required: [...(acc.required ?? []), ...(part.required ?? [])],
    }),
    {},
  );
}

function stringValue(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Math.max(min + 40, 200);
  const fits = (s: string) => s.length >= min && s.length <= max;
  switch (schema.format) {
    case "uuid":
      return fc.uuid();
    case "date-time":
      return fc
        .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true })
        .map((d) => d.toISOString());
    case "email":
      return fc.emailAddress().filter(fits);
  }
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
  const short = Math.min(max, min + 30);
  return fc.oneof(
    { arbitrary: fc.string({ minLength: min, maxLength: short }), weight: 6 },
    { arbitrary: fc.string({ minLength: min, maxLength: short, unit: "grapheme" }).filter(fits), weight: 2 },
    // Exactly the longest allowed: the boundary a database column or an index may not take.
    { arbitrary: fc.string({ minLength: max, maxLength: max }), weight: 1 },
  );
}

function bounds(schema: JsonSchema, integer: boolean): { lo: number; hi: number } {
  const step = integer ? 1 : 0.01;
  let lo = schema.minimum ?? -1e6;
  let hi = schema.maximum ?? 1e6;
  if (typeof schema.exclusiveMinimum === "number") lo = schema.exclusiveMinimum + step;
  else if (schema.exclusiveMinimum === true) lo += step;
  if (typeof schema.exclusiveMaximum === "number") hi = schema.exclusiveMaximum - step;
  else if (schema.exclusiveMaximum === true) hi -= step;
  return { lo, hi };
}

function numberValue(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const { lo, hi } = bounds(schema, integer);
  const ints = fc.integer({ min: Math.ceil(Math.max(lo, -(2 ** 31))), max: Math.floor(Math.min(hi, 2 ** 31 - 1)) });
  if (integer) return fc.oneof(ints, fc.constantFrom(Math.ceil(lo), Math.floor(hi)));
  // Money is dollars with at most two decimals and refined bounds the schema does not show; whole
  // and cent values get past the first, everyday amounts (up to $2,000) past the second.
  const centsBetween = (from: number, to: number) =>
    fc.integer({ min: Math.ceil(Math.max(lo, from) * 100), max: Math.floor(Math.min(hi, to) * 100) }).map((c) => c / 100);
  const everyday = lo <= 2000 && hi >= 0 ? [centsBetween(0, 2000), centsBetween(0, 2000)] : [];
  return fc.oneof(ints, ...everyday, centsBetween(-1e7, 1e7), fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true }), fc.constantFrom(lo, hi));
}

function arrayValue(schema: JsonSchema, named: NamedValues, mode: Mode): fc.Arbitrary<unknown[]> {
  const min = schema.minItems ?? 0;
  const max = Math.min(schema.maxItems ?? min + 5, min + 5);
  return fc.array(schema.items ? convert(schema.items, named, mode) : fc.jsonValue({ maxDepth: 1 }), { minLength: min, maxLength: max });
}

function objectValue(schema: JsonSchema, named: NamedValues, mode: Mode): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, child] of Object.entries(properties)) {
    const fromSchema = convert(child, named, mode);
    const type = primaryType(child);
    const hint = type ? named[key]?.[type] : undefined;
    model[key] = hint ? fc.oneof({ arbitrary: fromSchema, weight: 1 }, { arbitrary: hint, weight: 3 }) : fromSchema;
  }
  const requiredKeys = (schema.required ?? []).filter((k) => k in properties);
  const record = fc.record(model, { requiredKeys });
  const extra =
    typeof schema.additionalProperties === "object" && Object.keys(properties).length === 0
      ? fc.dictionary(fc.string({ maxLength: 12 }), convert(schema.additionalProperties, named, mode), { maxKeys: 4 })
      : fc.constant({});
  const whole = fc.tuple(record, extra).map(([a, b]) => ({ ...b, ...a }));
  if (mode === "valid") return whole;
  return fc
    .tuple(whole, fc.nat({ max: 9 }), fc.nat(), fc.constantFrom(...POLLUTING_KEYS), fc.constantFrom(...WRONG_TYPES, { isAdmin: true, role: "admin" }))
    .map(([value, pick, index, key, junk]) => {
      // Object.fromEntries defines "__proto__" as an own key (assignment would set the prototype).
      if (pick === 0 && requiredKeys.length > 0) {
        const dropped = requiredKeys[index % requiredKeys.length];
        return Object.fromEntries(Object.entries(value).filter(([k]) => k !== dropped));
      }
      if (pick === 1) return Object.fromEntries([...Object.entries(value), [key, junk]]);
      return value;
    });
}

function lengthBoundaries(schema: JsonSchema): string[] {
  const out: string[] = [];
  if (schema.minLength !== undefined && schema.minLength > 0) out.push("x".repeat(schema.minLength - 1));
  if (schema.maxLength !== undefined) {
    out.push("x".repeat(schema.maxLength + 1), "é".repeat(schema.maxLength), "💥".repeat(schema.maxLength));
    out.push(`${" ".repeat(schema.maxLength)}x`);
  }
  return out;
}

const EVIL_DATES = [
  "2026-02-30T00:00:00Z",
  "2026-06-01",
  "2026-06-01T12:00:00",
  "9999-12-31T23:59:59.999Z",
  "0000-01-01T00:00:00Z",
  "2026-06-01T12:00:00+99:99",
  "2026-06-01T24:00:00Z",
  "+275760-09-14T00:00:00Z",
];

const EVIL_UUIDS = [
  "00000000-0000-0000-0000-000000000000",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
  "ABCDEF00-0000-4000-8000-000000000000",
  "{6f1c1b2e-7f0a-4c3b-9d7e-2a1b3c4d5e6f}",
  "6f1c1b2e7f0a4c3b9d7e2a1b3c4d5e6f",
  "6f1c1b2e-7f0a-4c3b-9d7e-2a1b3c4d5e6f\u0000",
  "6f1c1b2e-7f0a-4c3b-9d7e-2a1b3c4d5e6f ",
];

/** A boundary or wrong-type value for the place of `schema`. */
export function evil(schema: JsonSchema): fc.Arbitrary<unknown> {
  const types = typesOf(schema);
  const options: unknown[] = [...WRONG_TYPES];
  if (types.includes("string") || schema.enum) {
    options.push(...EVIL_STRINGS, ...lengthBoundaries(schema), 12345, 1.5);
    if (schema.format === "date-time") options.push(...EVIL_DATES);
    if (schema.format === "uuid") options.push(...EVIL_UUIDS);
    for (const v of schema.enum ?? []) {
      if (typeof v === "string") options.push(v.toUpperCase(), ` ${v}`, `${v}\u0000`);
    }
  }
  if (types.includes("number") || types.includes("integer")) {
    options.push(...EVIL_NUMBERS, 1.5, -1.5);
    if (schema.minimum !== undefined) options.push(schema.minimum - 1, schema.minimum - 0.001);
    if (schema.maximum !== undefined) options.push(schema.maximum + 1, schema.maximum + 0.001);
  }
  if (types.includes("boolean")) options.push("true", "false", 1, 0, "on");
  if (types.includes("array")) options.push(new Array(10_000).fill(0), "a,b", { 0: "x" });
  if (types.includes("object")) options.push(nested(400), [{}], "{}", Object.fromEntries([["__proto__", { isAdmin: true }]]));
  const picked = fc.constantFrom(...options);
  if (types.includes("array") && schema.items && schema.maxItems !== undefined) {
    // One item more than allowed, each of them valid: only the count is wrong.
    const tooMany = fc.array(validValue(schema.items), { minLength: schema.maxItems + 1, maxLength: schema.maxItems + 1 });
    return fc.oneof(picked, tooMany);
  }
  return picked;
}

function nested(depth: number): unknown {
  let value: unknown = {};
  for (let i = 0; i < depth; i += 1) value = { a: value };
  return value;
}

/** Bodies that ignore the schema: random JSON, broken JSON, deep nesting, and prototype keys. */
export const junkJson: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => toJsonText(v)),
  fc.string({ maxLength: 60 }),
  fc.string({ maxLength: 60, unit: "binary" }),
  fc.constantFrom(
    "",
    "null",
    "0",
    '"text"',
    "[]",
    "{",
    '{"a":',
    "{'a':1}",
    '{"a":1,}',
    '{"a":1}{"b":2}',
    '{"__proto__":{"isAdmin":true,"role":"admin"}}',
    '{"constructor":{"prototype":{"isAdmin":true}}}',
    '{"a":1e999}',
    '{"a":"\\ud800"}',
    "\u0000",
    "\ufeff{}",
    "[".repeat(100_000) + "]".repeat(100_000),
    `{"a":"${LONG}"}`,
  ),
);
