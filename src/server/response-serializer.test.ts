import Fastify from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import errors from "./plugins/errors.js";
import { responseSerializerCompiler } from "./response-serializer.js";

// Answers are written by fast-json-stringify from each route's zod schema, zod is kept out of
// production's path and checks every answer elsewhere (docs/decisions/076-responses-written-without-zod.md).

let zodChecks = 0;
const person = z.object({ id: z.string(), name: z.string().nullable() });
const answerSchema = z.object({
  id: z.uuid(),
  // Counts zod's passes over an answer: a refinement runs only when zod reads the value.
  title: z.string().refine(() => ++zodChecks > 0),
  status: z.enum(["open", "done"]),
  budgetCents: z.number().int(),
  dueAt: z.iso.datetime().nullable(),
  note: z.string().optional(),
  assignee: person.nullable(),
  tags: z.array(z.string()),
});
// A union is written by zod: fast-json-stringify's choice of branch refused answers zod takes.
const union = z.discriminatedUnion("kind", [z.object({ kind: z.literal("card"), last4: z.string() }), z.object({ kind: z.literal("none") })]);
const withDefault = z.object({ count: z.number().default(0) });

const row = {
  id: "4b1d2f7e-3c41-4a2e-9d7b-2d6c0c6f3a10",
  title: 'A "quoted" errand \u2028 with ünïcode',
  status: "open",
  budgetCents: 2500,
  dueAt: null,
  assignee: { id: "p1", name: null, passwordHash: "secret" },
  tags: ["a", "b"],
  streetAddress: "1 Private Lane",
};

async function appWith(checked: boolean) {
  const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  app.setSerializerCompiler(responseSerializerCompiler({ checked }));
  await app.register(errors);
  app.get("/answer", { schema: { response: { 200: answerSchema } } }, () => row as never);
  app.get("/missing", { schema: { response: { 200: answerSchema } } }, () => ({ ...row, status: undefined }) as never);
  app.get("/union", { schema: { response: { 200: union } } }, () => ({ kind: "card", last4: "4242", cardNumber: "4242424242424242" }) as never);
  app.get("/default", { schema: { response: { 200: withDefault } } }, () => ({ count: 3 }));
  return app;
}

describe("responses written from the zod schema", () => {
  it.each([
    ["production", false],
    ["tests and development", true],
  ])("in %s write only the fields the schema names, as zod would", async (_, checked) => {
    const app = await appWith(checked);
    const res = await app.inject({ url: "/answer" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(JSON.stringify(z.encode(answerSchema, row as never)));
    expect(res.body).not.toMatch(/secret|Private Lane|4242424242424242/);
    expect((await app.inject({ url: "/default" })).json()).toEqual({ count: 3 });
    expect((await app.inject({ url: "/union" })).json()).toEqual({ kind: "card", last4: "4242" });
  });

  it("in production does not run zod over the answer; elsewhere it does", async () => {
    zodChecks = 0;
    await (await appWith(false)).inject({ url: "/answer" });
    expect(zodChecks).toBe(0);
    await (await appWith(true)).inject({ url: "/answer" });
    expect(zodChecks).toBe(1);
  });

  it("answers 500, not a partial body, when a required field is missing", async () => {
    for (const checked of [false, true]) {
      const res = await (await appWith(checked)).inject({ url: "/missing" });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: "Internal server error" });
    }
  });
});
