import { useMutation } from "@tanstack/react-query";
import type { FelixRequest, FelixResponse } from "@shared/felix";
import { apiRequest } from "@/lib/api";

// POST /api/ask-felix. A question changes nothing stored, so there is no query to invalidate.

export function askFelix(request: FelixRequest): Promise<FelixResponse> {
  return apiRequest<FelixResponse>("POST", "/api/ask-felix", request);
}

export function useAskFelix() {
  return useMutation({ mutationFn: askFelix });
}
