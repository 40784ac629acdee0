import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./errors.js";

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
  ])("is true for %s", (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ["a unique violation", failedQuery(pgError("duplicate key value violates unique constraint", "23505"))],
    ["a programming error", new TypeError("Cannot read properties of undefined")],
    ["a non-error", "boom"],
  ])("is false for %s", (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
