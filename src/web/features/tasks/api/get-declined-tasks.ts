import { useQuery } from "@tanstack/react-query";
import type { DeclinedTasks } from "@shared/tasks";

/**
 * GET /api/tasks/declined: the open tasks whose poster declined the signed-in provider. The job
 * board is the same for everyone, so it leaves them out here; the task page says why there is no
 * Claim (docs/decisions/024-declining-a-provider.md).
 */
export const declinedTasksQueryKey = ["/api/tasks/declined"] as const;

const NONE: ReadonlySet<string> = new Set();
// One function for every render, so the set is built again only when the answer changes (the map
// re-clusters when its tasks change).
const asSet = (data: DeclinedTasks): ReadonlySet<string> => new Set(data.taskIds);

/** The ids as a set; empty while loading or for anyone who is not a provider. */
export function useDeclinedTasks(enabled: boolean): ReadonlySet<string> {
  const declined = useQuery<DeclinedTasks, Error, ReadonlySet<string>>({
    queryKey: declinedTasksQueryKey,
    enabled,
    select: asSet,
  });
  return declined.data ?? NONE;
}
