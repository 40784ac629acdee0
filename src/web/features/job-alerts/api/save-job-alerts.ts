import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { JobAlertList, SaveJobAlertsBody } from "@shared/job-alerts";
import { apiRequest } from "@/lib/api";
import { jobAlertsQueryKey } from "./get-job-alerts";

/** PUT /api/alerts: replaces the whole list. */
export function useSaveJobAlerts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveJobAlertsBody) => apiRequest<JobAlertList>("PUT", "/api/alerts", body),
    onSuccess: (list) => queryClient.setQueryData(jobAlertsQueryKey, list),
  });
}
