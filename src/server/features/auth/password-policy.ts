import type { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { fieldError } from "../../http-errors.js";
import { passwordStrengthOptions, passwordStrengthProblem, passwordUserInputs } from "../../../shared/password-strength.js";

// The server's password rule, beyond the shared schema's length: zxcvbn with the common and
// breached password list of @zxcvbn-ts/language-common and the person's own names and e-mail,
// refusing a score under PASSWORD_MIN_SCORE. Every route that sets a password calls
// `passwordProblem` (docs/product.md "Passwords", docs/decisions/022-sign-in-throttling-and-password-policy.md).

let factory: Promise<ZxcvbnFactory> | undefined;

/** Loaded on first use, once per process: the list is ~400 KB and building its ranks takes ~80 ms. */
function estimator(): Promise<ZxcvbnFactory> {
  factory ??= Promise.all([import("@zxcvbn-ts/core"), import("@zxcvbn-ts/language-common")]).then(
    ([core, common]) => new core.ZxcvbnFactory(passwordStrengthOptions(common)),
  );
  return factory;
}

export interface PasswordOwner {
  email?: string;
  firstName?: string;
  lastName?: string;
}

/** Why this password is refused, in words for the person (answer it as 400), or null when it is good. */
export async function passwordProblem(password: string, owner: PasswordOwner): Promise<string | null> {
  const zxcvbn = await estimator();
  return passwordStrengthProblem(zxcvbn.check(password, passwordUserInputs(owner)));
}

/** The one-line guard for a route that sets a password: 400 with the reason under `field`, before anything is stored. */
export async function assertPasswordAccepted(password: string, owner: PasswordOwner, field = "password"): Promise<void> {
  const problem = await passwordProblem(password, owner);
  if (problem) throw fieldError(field, problem);
}
