import fastJson from "fast-json-stringify";
import type { FastifySerializerCompiler } from "fastify";
import { ResponseSerializationError, serializerCompiler as zodSerializerCompiler } from "fastify-type-provider-zod";
import { z } from "zod";

// Responses are written by fast-json-stringify from the JSON Schema of each route's zod response
// schema, instead of zod encoding a copy of every answer before JSON.stringify: zod's response
// check was the largest allocator of the mix (docs/decisions/076-responses-written-without-zod.md).
// The rule of docs/architecture.md ("How a request flows", step 5) holds: only the fields the
// schema names are written. A schema whose written form is not what it reads (a default, a codec,
// a transform) or that JSON Schema cannot say keeps zod's serializer. Outside production each
// answer is still checked by zod and must come out byte for byte as zod would write it, so every
// test compares the two.

type ZodSchema = z.ZodType;
type RouteSchema = ZodSchema | { properties: ZodSchema };
type Serialize = (data: unknown) => string;

/** The zod schema of a route's response, in either form fastify-type-provider-zod takes. */
function zodSchemaOf(schema: RouteSchema): ZodSchema {
  return schema instanceof z.ZodType ? schema : schema.properties;
}

type JsonSchema = Record<string, unknown>;

const isPlainNull = (schema: unknown) =>
  typeof schema === "object" && schema !== null && Object.keys(schema).length === 1 && (schema as JsonSchema).type === "null";

/** Checks of a value that do not change how it is written (zod checks them outside production). */
const CHECKS = new Set(["format", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems"]);

/**
 * The JSON Schema as fast-json-stringify reads it best. A union's branch is picked by validating
 * the answer against it, so the branches keep only what tells them apart (types, `const`, `enum`,
 * `required`), as zod's discriminated unions do: `additionalProperties: false` dropped (the
 * answer holds more fields than the schema names; no unnamed field is written anyway), the checks
 * above dropped (ajv's formats are not zod's), and `oneOf` read as `anyOf` (the first branch that
 * fits, as zod's union). `anyOf [X, null]` of a plain type becomes one nullable type.
 */
function simplify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplify);
  if (typeof node !== "object" || node === null) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema" || (key === "additionalProperties" && value === false) || CHECKS.has(key)) continue;
    const name = key === "oneOf" ? "anyOf" : key;
    out[name] = key === "properties" || key === "definitions" ? Object.fromEntries(Object.entries(value as JsonSchema).map(([k, v]) => [k, simplify(v)])) : simplify(value);
  }
  const anyOf = out.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2 && Object.keys(out).length === 1) {
    const other = anyOf.find((branch) => !isPlainNull(branch)) as JsonSchema | undefined;
    if (other && anyOf.some(isPlainNull) && typeof other.type === "string" && !("anyOf" in other || "oneOf" in other || "allOf" in other || "$ref" in other)) {
      return { ...other, type: [other.type, "null"] };
    }
  }
  return out;
}

/** The schema for fast-json-stringify, or null when zod must write it (see the top of this file). */
function jsonSchemaOf(schema: ZodSchema): JsonSchema | null {
  try {
    const options = { target: "draft-7", unrepresentable: "throw", cycles: "ref", reused: "inline" } as const;
    // Encoding writes the schema's input form; when it differs from the output form, something
    // between them (a default, a codec, a transform) changes the answer. (Objects differ only by
    // the output's `additionalProperties: false`, which simplify drops.)
    const input = JSON.stringify(simplify(z.toJSONSchema(schema, { ...options, io: "input" })));
    const output = JSON.stringify(simplify(z.toJSONSchema(schema, { ...options, io: "output" })));
    // A union is left to zod: fast-json-stringify picks its branch by validating the answer with
    // ajv, which refused answers zod's union takes (a task's detail, the board in the tests).
    return input === output && !/"(anyOf|oneOf|allOf)":/.test(input) ? (JSON.parse(input) as JsonSchema) : null;
  } catch {
    return null;
  }
}

const compiled = new WeakMap<ZodSchema, Serialize | null>();

/** fast-json-stringify's writer of a schema, compiled on first use and shared by every route that answers with it. */
function fastWriter(schema: ZodSchema): Serialize | null {
  if (!compiled.has(schema)) {
    const json = jsonSchemaOf(schema);
    compiled.set(schema, json ? (fastJson(json) as Serialize) : null);
  }
  return compiled.get(schema) ?? null;
}

/** The error plugins/errors.ts answers 500 to and logs with its cause (typed as zod's, read as any). */
function serializationError(route: { method: string; url: string }, cause: unknown): ResponseSerializationError {
  return new ResponseSerializationError(route.method, route.url, { cause: cause as z.core.$ZodError });
}

/**
 * Fastify's serializer compiler for zod response schemas. `checked` (every mode but production)
 * also runs zod's serializer and throws unless both write the same text.
 */
export function responseSerializerCompiler(options: { checked: boolean }): FastifySerializerCompiler<RouteSchema> {
  return (route) => {
    const schema = zodSchemaOf(route.schema);
    const zodWrite = zodSerializerCompiler(route) as Serialize;
    let write: Serialize | null | undefined;
    return (data) => {
      // Compiled on the first answer, not at boot: most routes of an instance never answer.
      if (write === undefined) write = fastWriter(schema);
      if (write === null) return zodWrite(data);
      if (options.checked) {
        const expected = zodWrite(data);
        let actual: string;
        try {
          actual = write(data);
        } catch (cause) {
          throw serializationError(route, cause);
        }
        if (actual !== expected) {
          throw serializationError(route, new Error(`fast-json-stringify wrote ${actual.slice(0, 500)} where zod wrote ${expected.slice(0, 500)}`));
        }
        return actual;
      }
      try {
        return write(data);
      } catch (cause) {
        // A field the schema requires is missing, or a union matched no branch.
        throw serializationError(route, cause);
      }
    };
  };
}
