import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "../../config/env.js";
import { checkrSignature, createCheckrChecks } from "./checkr.js";
import { createBackgroundChecks } from "./create-background-checks.js";

// Manual unless BACKGROUND_CHECKS=checkr, which needs its key (docs/decisions/064-background-checks.md).

describe("createBackgroundChecks", () => {
  it("records checks by hand by default", () => {
    expect(createBackgroundChecks(parseEnv({})).name).toBe("manual");
  });

  it("runs Checkr with its key, and refuses to start without one", () => {
    expect(createBackgroundChecks(parseEnv({ BACKGROUND_CHECKS: "checkr", CHECKR_API_KEY: "key" })).name).toBe("checkr");
    expect(() => parseEnv({ BACKGROUND_CHECKS: "checkr" })).toThrow(EnvError);
    expect(() => parseEnv({ BACKGROUND_CHECKS: "checkr" })).toThrow(/CHECKR_API_KEY: is required when BACKGROUND_CHECKS is checkr/);
  });

  it("verifies the webhook with the webhook secret when one is set", () => {
    const checks = createCheckrChecks({ apiKey: "key", baseUrl: "http://127.0.0.1:9", webhookSecret: "other", package: "p" });
    const body = Buffer.from(JSON.stringify({ id: "evt_1", type: "report.completed" }));
    expect(() => checks.parseWebhook(body, checkrSignature("key", body))).toThrow(/does not match/);
    expect(checks.parseWebhook(body, checkrSignature("other", body))).toEqual({ id: "evt_1", type: "report.completed", report: null });
  });
});
