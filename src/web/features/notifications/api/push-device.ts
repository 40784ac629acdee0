import { useQuery } from "@tanstack/react-query";
import type { PushKey, PushSubscriptionBody } from "@shared/push";
import { apiRequest } from "@/lib/api";

/** GET /api/push/key: the server's VAPID public key, null when push is off on the server. */
export const pushKeyQueryKey = ["/api/push/key"] as const;

export function usePushKey() {
  return useQuery({
    queryKey: pushKeyQueryKey,
    queryFn: () => apiRequest<PushKey>("GET", "/api/push/key"),
    staleTime: Infinity,
  });
}

/** POST /api/push/subscriptions: this device receives pushes for the signed-in person. */
export const savePushSubscription = (body: PushSubscriptionBody) => apiRequest("POST", "/api/push/subscriptions", body);

/** DELETE /api/push/subscriptions: this device stops receiving them. */
export const deletePushSubscription = (endpoint: string) => apiRequest("DELETE", "/api/push/subscriptions", { endpoint });
