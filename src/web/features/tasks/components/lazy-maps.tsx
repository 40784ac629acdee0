import { lazy, Suspense } from "react";
import type { BoardMapProps } from "./board-map";

// The board's map loads on demand (React.lazy): Leaflet, supercluster and Leaflet's style sheet are
// in its chunks, so the job board's list loads nothing of them until the map is shown
// (docs/decisions/031-job-board-map.md, e2e/budgets.e2e.ts). It waits in a box of its final size,
// so nothing moves when it arrives.

const BoardMap = lazy(() => import("./board-map"));

export function LazyBoardMap(props: BoardMapProps) {
  return (
    <Suspense
      fallback={
        <div role="status" className="flex h-[60vh] max-h-[40rem] min-h-80 items-center justify-center rounded-lg border bg-muted text-sm text-muted-foreground">
          Loading the map...
        </div>
      }
    >
      <BoardMap {...props} />
    </Suspense>
  );
}
