import { apiRequest } from "@/lib/api";

/** POST /api/stripe/connect/account: creates the payout account (409 'already exists' when there is one). */
export function createConnectAccount(): Promise<{ accountId: string }> {
  return apiRequest<{ accountId: string }>("POST", "/api/stripe/connect/account");
}
