import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ContactMessagePage } from "@shared/site";
import { apiRequest } from "@/lib/api";

/** GET /api/admin/contact-messages: the admin inbox, newest first. */
export const contactMessagesBaseKey = ["/api/admin/contact-messages"] as const;

export function useContactMessages(page: number, pageSize: number) {
  return useQuery({
    queryKey: [...contactMessagesBaseKey, { page, pageSize }],
    queryFn: () => apiRequest<ContactMessagePage>("GET", `/api/admin/contact-messages?page=${page}&pageSize=${pageSize}`),
    placeholderData: keepPreviousData,
  });
}
