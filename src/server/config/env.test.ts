import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env.js";

// A request's headers have their own, shorter time to arrive (docs/decisions/071-connections-closed-on-time.md).

describe("HEADERS_TIMEOUT_MS", () => {
  it("is 20 s unless set, or REQUEST_TIMEOUT_MS when that is shorter", () => {
    expect(parseEnv({}).HEADERS_TIMEOUT_MS).toBe(20_000);
    expect(parseEnv({ REQUEST_TIMEOUT_MS: "5000" }).HEADERS_TIMEOUT_MS).toBe(5_000);
    expect(parseEnv({ HEADERS_TIMEOUT_MS: "8000" }).HEADERS_TIMEOUT_MS).toBe(8_000);
  });

  it("refuses to be longer than REQUEST_TIMEOUT_MS, naming both", () => {
    expect(() => parseEnv({ REQUEST_TIMEOUT_MS: "10000", HEADERS_TIMEOUT_MS: "20000" })).toThrow(EnvError);
    expect(() => parseEnv({ REQUEST_TIMEOUT_MS: "10000", HEADERS_TIMEOUT_MS: "20000" })).toThrow(
      "HEADERS_TIMEOUT_MS: must not be longer than REQUEST_TIMEOUT_MS (10000)",
    );
  });
});
