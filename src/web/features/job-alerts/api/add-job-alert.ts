import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { JobAlert, JobAlertInput, JobAlertList } from "@shared/job-alerts";
import { apiRequest } from "@/lib/api";
import { fetchJobAlerts, jobAlertsQueryKey } from "./get-job-alerts";

const sameAlert = (a: JobAlert, b: JobAlertInput) =>
  a.near === b.near.trim() && a.radiusMiles === b.radiusMiles && a.minBudget === b.minBudget && [...a.categories].sort().join() === [...b.categories].sort().join();

/**
 * One more alert at the end of the list (the job board's "Create alert from these filters"): the
 * list as the server has it now, plus this one, saved with PUT /api/alerts. "exists" when the
 * provider already has the very same alert.
 */
export function useAddJobAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (alert: JobAlertInput): Promise<{ list: JobAlertList; added: boolean }> => {
      const current = await queryClient.fetchQuery({ queryKey: jobAlertsQueryKey, queryFn: fetchJobAlerts, staleTime: 0 });
      if (current.alerts.some((a) => sameAlert(a, alert))) return { list: current, added: false };
      const alerts = [...current.alerts.map(({ categories, near, radiusMiles, minBudget }) => ({ categories, near, radiusMiles, minBudget })), alert];
      return { list: await apiRequest<JobAlertList>("PUT", "/api/alerts", { alerts }), added: true };
    },
    onSuccess: ({ list }) => queryClient.setQueryData(jobAlertsQueryKey, list),
  });
}
