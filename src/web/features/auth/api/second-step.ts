import { startAuthentication } from "@simplewebauthn/browser";
import type { SecondStepResult } from "@shared/security";
import { apiRequest } from "@/lib/api";

// Finishing a sign-in (docs/decisions/049-second-factors.md): a code after the password, or a
// passkey, alone or as the second step; and confirming it is you before a sensitive change.

/** POST /api/auth/second-factor: an authenticator code or a recovery code. */
export function verifySecondFactor(code: string) {
  return apiRequest<SecondStepResult>("POST", "/api/auth/second-factor", { code });
}

type AuthenticationOptions = Parameters<typeof startAuthentication>[0]["optionsJSON"];

/** POST /api/auth/passkey/options then /api/auth/passkey: the browser asks the person for their passkey. */
export async function signInWithPasskey() {
  const optionsJSON = await apiRequest<AuthenticationOptions>("POST", "/api/auth/passkey/options");
  const response = await startAuthentication({ optionsJSON });
  return apiRequest<SecondStepResult>("POST", "/api/auth/passkey", { response });
}

/** POST /api/auth/step-up: the password again. */
export function stepUpWithPassword(password: string) {
  return apiRequest("POST", "/api/auth/step-up", { password });
}

/** POST /api/auth/step-up/passkey/options then /api/auth/step-up/passkey. */
export async function stepUpWithPasskey() {
  const optionsJSON = await apiRequest<AuthenticationOptions>("POST", "/api/auth/step-up/passkey/options");
  const response = await startAuthentication({ optionsJSON });
  return apiRequest("POST", "/api/auth/step-up/passkey", { response });
}
