import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AppointmentBody } from "@shared/site";
import { apiRequest } from "@/lib/api";
import { appointmentsBaseKey } from "./get-appointments";

/** POST /api/appointments. */
export function useRequestAppointment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AppointmentBody) => apiRequest<{ ok: true; id: string }>("POST", "/api/appointments", body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appointmentsBaseKey }),
  });
}
