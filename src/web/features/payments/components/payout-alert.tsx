// Placeholder until the payments feature lands.
/** Dashboard payouts alert (spec §4 "Payout alerts"), shown only to approved providers. */
export function PayoutAlert() {
  return null;
}
