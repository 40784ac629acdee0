import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import type { backgroundCheckServiceSchema } from "@shared/background-checks";

/** GET /api/admin/background-checks/service: by hand ("manual") or through Checkr ("checkr"). */
export const backgroundCheckServiceQueryKey = ["/api/admin/background-checks/service"] as const;

export function useBackgroundCheckService() {
  return useQuery<z.infer<typeof backgroundCheckServiceSchema>>({ queryKey: backgroundCheckServiceQueryKey, staleTime: Infinity });
}
