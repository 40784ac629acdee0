import { useQuery } from "@tanstack/react-query";
import type { JobAlertList } from "@shared/job-alerts";
import { apiRequest } from "@/lib/api";

/** GET /api/alerts: the signed-in provider's job alerts. */
export const jobAlertsQueryKey = ["/api/alerts"] as const;

export const fetchJobAlerts = () => apiRequest<JobAlertList>("GET", "/api/alerts");

export function useJobAlerts() {
  return useQuery({
    queryKey: jobAlertsQueryKey,
    queryFn: fetchJobAlerts,
    // A 403 (not a verified provider) is an answer to show, not a hiccup to retry.
    retry: false,
  });
}
