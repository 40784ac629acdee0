import type { Env } from "../../config/env.js";
import type { BackgroundChecks } from "./background-checks.js";
import { createCheckrChecks } from "./checkr.js";

// Picks the background-check adapter from BACKGROUND_CHECKS (docs/decisions/064-background-checks.md).
// The Checkr adapter is plain fetch and node:crypto, so nothing heavy is loaded either way.
export function createBackgroundChecks(
  env: Pick<Env, "BACKGROUND_CHECKS" | "CHECKR_API_KEY" | "CHECKR_BASE_URL" | "CHECKR_WEBHOOK_SECRET" | "CHECKR_PACKAGE">,
  fetchImpl: typeof fetch = fetch,
): BackgroundChecks {
  if (env.BACKGROUND_CHECKS === "checkr" && env.CHECKR_API_KEY) {
    return createCheckrChecks({
      apiKey: env.CHECKR_API_KEY,
      baseUrl: env.CHECKR_BASE_URL,
      webhookSecret: env.CHECKR_WEBHOOK_SECRET ?? env.CHECKR_API_KEY,
      package: env.CHECKR_PACKAGE,
      fetch: fetchImpl,
    });
  }
  return { name: "manual" };
}
