import { apiRequest } from "@/lib/api";

/** POST /api/stripe/connect/account-link: where the browser goes to finish onboarding. */
export function createAccountLink(): Promise<{ url: string }> {
  return apiRequest<{ url: string }>("POST", "/api/stripe/connect/account-link");
}
