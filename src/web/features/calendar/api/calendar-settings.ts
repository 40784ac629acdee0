import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CalendarAnswer, CalendarSettingsBody } from "@shared/calendar";
import { apiRequest } from "@/lib/api";

/** GET /api/calendar: the signed-in provider's weekly hours, days off, notice, tasks a day and instant booking. */
export const calendarQueryKey = ["/api/calendar"] as const;

export function useCalendarSettings() {
  return useQuery({
    queryKey: calendarQueryKey,
    queryFn: () => apiRequest<CalendarAnswer>("GET", "/api/calendar"),
    // A 403 (not a verified provider) is an answer, not a hiccup to retry.
    retry: false,
  });
}

/** PUT /api/calendar: the whole calendar, as the form holds it. */
export function useSaveCalendarSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CalendarSettingsBody) => apiRequest<CalendarAnswer>("PUT", "/api/calendar", body),
    onSuccess: async (saved) => {
      queryClient.setQueryData(calendarQueryKey, saved);
      // The provider's own free slots (offered when they propose a new time) follow the new hours.
      await queryClient.invalidateQueries({ queryKey: slotsBaseKey });
    },
  });
}

export const slotsBaseKey = ["/api/providers", "slots"] as const;
