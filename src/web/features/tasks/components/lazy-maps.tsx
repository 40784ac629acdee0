import { lazy, Suspense, useMemo } from "react";
import type { TaskDetail } from "@shared/tasks";
import type { BoardMapProps } from "./board-map";
import { publicPlace } from "./task-format";

// The maps load on demand (React.lazy): Leaflet, supercluster and Leaflet's style sheet are in the
// maps' chunks, so the job board's list and the task page load nothing of them until a map is
// shown (docs/decisions/031-job-board-map.md, e2e/budgets.e2e.ts). Each waits in a box of its final
// size, so nothing moves when it arrives.

const BoardMap = lazy(() => import("./board-map"));
const TaskAreaMap = lazy(() => import("./task-area-map"));

const placeholder = "flex size-full items-center justify-center rounded-lg border bg-muted text-sm text-muted-foreground";

export function LazyBoardMap(props: BoardMapProps) {
  return (
    <Suspense
      fallback={
        <div role="status" className={`${placeholder} h-[60vh] max-h-[40rem] min-h-80`}>
          Loading the map...
        </div>
      }
    >
      <BoardMap {...props} />
    </Suspense>
  );
}

/** The task page's map of the approximate area; nothing for a task without a position. */
export function TaskAreaMapBox({ task }: { task: TaskDetail }) {
  const description = useMemo(() => `Map of the approximate area of this task (${publicPlace(task)}), not its address`, [task]);
  if (task.approxLat === null || task.approxLon === null) return null;
  return (
    <div className="h-48 sm:h-56">
      <Suspense fallback={<div role="status" className={placeholder}>Loading the map...</div>}>
        <TaskAreaMap task={task} description={description} />
      </Suspense>
    </div>
  );
}
