import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { badRequest, fieldError, namedFieldError } from "../http-errors.js";
import errors, { isDatabaseUnavailable } from "./errors.js";

// The shapes node-postgres and drizzle give a lost database (seen in
// test/faults/database-outage.faults.ts): each must answer 503, a real query error must not.

function failedQuery(cause: unknown): Error {
  return new Error("Failed query: select 1\nparams: ", { cause });
}

function pgError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe("isDatabaseUnavailable", () => {
  it.each([
    ["a refused connection", pgError("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED")],
    ["a server still starting, wrapped by drizzle", failedQuery(pgError("the database system is not yet accepting connections", "57P03"))],
    ["a session terminated by a shutdown", failedQuery(pgError("terminating connection due to administrator command", "57P01"))],
    ["a connection lost mid-query (no code)", failedQuery(new Error("Connection terminated unexpectedly"))],
    ["a failed ROLLBACK wrapping the lost connection", failedQuery(failedQuery(new Error("Client has encountered a connection error and is not queryable")))],
    ["a pool that cannot connect in time", new Error("timeout exceeded when trying to connect")],
    ["a connection exception (class 08)", failedQuery(pgError("connection failure", "08006"))],
    ["a stopped server's Unix socket, gone", failedQuery(Object.assign(new Error("connect ENOENT /tmp/pg/.s.PGSQL.5432"), { code: "ENOENT", syscall: "connect" }))],
  ])("is true for %s", (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ["a unique violation", failedQuery(pgError("duplicate key value violates unique constraint", "23505"))],
    ["a programming error", new TypeError("Cannot read properties of undefined")],
    ["a non-error", "boom"],
    ["a missing file", Object.assign(new Error("ENOENT: no such file or directory, open 'x'"), { code: "ENOENT", syscall: "open" })],
  ])("is false for %s", (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe("the error handler's fieldErrors", () => {
  async function answer(error: Error) {
    const app = Fastify();
    await app.register(errors);
    app.get("/", () => {
      throw error;
    });
    const res = await app.inject({ method: "GET", url: "/" });
    await app.close();
    return { status: res.statusCode, body: res.json<unknown>() };
  }

  it("are the ones the thrower named, never read back out of the message", async () => {
    // A sentence that happens to start with "Word: " is not about a field called "Word".
    expect(await answer(badRequest("Note: the shop closes at six. Pick an earlier time."))).toEqual({
      status: 400,
      body: { message: "Note: the shop closes at six. Pick an earlier time." },
    });
  });

  it("carry the named field's words alone, the message names the field first", async () => {
    expect(await answer(namedFieldError("cardNumber", "Your card number is invalid."))).toEqual({
      status: 400,
      body: { message: "cardNumber: Your card number is invalid.", fieldErrors: { cardNumber: "Your card number is invalid." } },
    });
    expect(await answer(fieldError("near", "We don't know the ZIP code 00000. Check it, or use a nearby one."))).toEqual({
      status: 400,
      body: {
        message: "We don't know the ZIP code 00000. Check it, or use a nearby one.",
        fieldErrors: { near: "We don't know the ZIP code 00000. Check it, or use a nearby one." },
      },
    });
  });
});
