import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { AppointmentPage } from "@shared/site";
import { apiRequest } from "@/lib/api";

/** GET /api/admin/appointments: appointment requests, newest first. */
export const appointmentsBaseKey = ["/api/admin/appointments"] as const;

export function useAppointments(page: number, pageSize: number) {
  return useQuery({
    queryKey: [...appointmentsBaseKey, { page, pageSize }],
    queryFn: () => apiRequest<AppointmentPage>("GET", `/api/admin/appointments?page=${page}&pageSize=${pageSize}`),
    placeholderData: keepPreviousData,
  });
}
