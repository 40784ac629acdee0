// Placeholder until the providers feature lands.
/** Dashboard verification-status alert (spec §4 verificationStatus). */
export function VerificationAlert() {
  return null;
}
