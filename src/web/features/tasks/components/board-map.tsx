import L from "leaflet";
import { LoaderCircle, Search } from "lucide-react";
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import Supercluster, { type ClusterProperties, type PointFeature } from "supercluster";
import { parseBbox } from "@shared/task-filters";
import type { TaskPublic } from "@shared/tasks";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/lib/api";
import type { OpenTasksParams } from "../api/get-open-tasks";
import { MAP_TASKS_LIMIT, useMapTasks } from "../api/get-map-tasks";
import { useLeafletMap, useTiles } from "./leaflet-map";
import { TilesUnavailable } from "./tiles-unavailable";
import { dollars } from "./task-format";

// The job board as a map (docs/product.md#job-board-map, docs/decisions/031-job-board-map.md): the
// list's query, each task at its approximate position (never the address), clustered where dense.
// A marker is a button ("Task: <title>, $25") that shows the task's card under the map; moving the
// map offers "Search this area", which puts the view's box in the URL as `bbox`.

export interface BoardMapProps {
  /** The board's query as the URL holds it; `bbox` is the area last searched. */
  params: OpenTasksParams;
  onSearchArea: (bbox: string) => void;
  /** The list's card for one task (the page composes it: claim, Felix). */
  renderCard: (task: TaskPublic) => ReactNode;
  /** What an empty answer says (the same as the list's). */
  emptyMessage: string;
  /**
   * Whether this viewer is not shown a task, as the list leaves it out (its poster declined them:
   * decision 024; they blocked its poster: docs/product.md, Moderation).
   */
  hidden: (task: TaskPublic) => boolean;
}

/** The contiguous United States, when there is nothing to fit. */
const START = { center: [39.5, -98.35] as L.LatLngTuple, zoom: 4 };
/** Supercluster groups up to this zoom; beyond it, tasks at one spot show as separate markers. */
const CLUSTER_MAX_ZOOM = 16;

type TaskPoint = PointFeature<{ id: string }>;

/** "$25" on a marker (narrow), "$25.50" when there are cents. */
const markerPrice = (budget: number) => (Number.isInteger(budget) ? `$${budget.toLocaleString("en-US")}` : dollars(budget));

const five = (n: number) => String(Number(n.toFixed(5)));

/** The view as the API's bbox, "west,south,east,north", kept inside the world. */
function viewBbox(bounds: L.LatLngBounds): string {
  const west = Math.max(-180, bounds.getWest());
  const east = Math.min(180, bounds.getEast());
  const south = Math.max(-90, bounds.getSouth());
  const north = Math.min(90, bounds.getNorth());
  return [west, south, east, north].map(five).join(",");
}

const pill =
  "errandly-marker rounded-full border-2 border-white text-xs font-semibold shadow-md outline-none focus-visible:ring-4 focus-visible:ring-ring";

function markerIcon(text: string, className: string, size: [number, number]): L.DivIcon {
  const label = document.createElement("span");
  label.textContent = text;
  label.setAttribute("aria-hidden", "true");
  return L.divIcon({ html: label, className: `${pill} ${className}`, iconSize: size, iconAnchor: [size[0] / 2, size[1] / 2] });
}

/** Enter and Space act on a focused marker, as on any button. */
function onActivate(marker: L.Marker, name: string, act: () => void) {
  const element = marker.getElement();
  if (!element) return;
  element.setAttribute("aria-label", name);
  element.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    act();
  });
  marker.on("click", act);
}

export default function BoardMap({ params, onSearchArea, renderCard, emptyMessage, hidden }: BoardMapProps) {
  const query = useMapTasks(params);
  const tasks = useMemo(() => (query.data ?? []).filter((task) => !hidden(task)), [query.data, hidden]);
  const container = useRef<HTMLDivElement>(null);
  const map = useLeafletMap(container, { center: START.center, zoom: START.zoom, maxZoom: 18 });
  const tilesUnavailable = useTiles(map);
  const [moved, setMoved] = useState(false);
  const [viewVersion, setViewVersion] = useState(0);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const card = useRef<HTMLDivElement>(null);
  // Moves the page makes (fitting the tasks or the URL's area) are not the person's: no "Search this area".
  const programmatic = useRef(false);
  const fittedArea = useRef<string | null>(null);
  const fittedTasks = useRef(false);
  const searched = useRef<string | null>(null);

  const placed = useMemo(() => tasks.filter((t) => t.approxLat !== null && t.approxLon !== null), [tasks]);
  const byId = useMemo(() => new Map(tasks.map((t) => [t.id, t])), [tasks]);
  const index = useMemo(() => {
    const points: TaskPoint[] = placed.map((t) => ({
      type: "Feature",
      properties: { id: t.id },
      geometry: { type: "Point", coordinates: [t.approxLon ?? 0, t.approxLat ?? 0] },
    }));
    return new Supercluster<{ id: string }>({ radius: 56, maxZoom: CLUSTER_MAX_ZOOM }).load(points);
  }, [placed]);

  useEffect(() => {
    if (!map) return;
    const onMoveEnd = () => {
      if (!programmatic.current) setMoved(true);
      setViewVersion((v) => v + 1);
    };
    map.on("moveend", onMoveEnd);
    return () => {
      map.off("moveend", onMoveEnd);
    };
  }, [map]);

  // Show the URL's area when it changes (a shared link, Back); else fit the tasks once.
  const bbox = params.bbox;
  useEffect(() => {
    if (!map) return;
    const quietly = (move: () => void) => {
      programmatic.current = true;
      move();
      programmatic.current = false;
    };
    const area = bbox ? parseBbox(bbox) : null;
    if (bbox && area && typeof area !== "string") {
      if (bbox === searched.current || bbox === fittedArea.current) return;
      fittedArea.current = bbox;
      quietly(() => map.fitBounds([[area.south, area.west], [area.north, area.east]], { animate: false }));
      return;
    }
    if (fittedTasks.current || placed.length === 0) return;
    fittedTasks.current = true;
    const bounds = L.latLngBounds(placed.map((t) => [t.approxLat ?? 0, t.approxLon ?? 0] as L.LatLngTuple));
    quietly(() => map.fitBounds(bounds, { animate: false, maxZoom: 12, padding: [32, 32] }));
  }, [map, bbox, placed]);

  // The markers for the view: clusters as "N tasks here" buttons that zoom in, tasks as price buttons.
  useEffect(() => {
    if (!map) return;
    const layer = L.layerGroup().addTo(map);
    const bounds = map.getBounds().pad(0.25);
    const zoom = Math.round(map.getZoom());
    const features = index.getClusters(
      [Math.max(-180, bounds.getWest()), Math.max(-85, bounds.getSouth()), Math.min(180, bounds.getEast()), Math.min(85, bounds.getNorth())],
      zoom,
    );
    // Tab order follows reading order: north to south, then west to east.
    const at = (f: (typeof features)[number], i: 0 | 1) => f.geometry.coordinates[i] ?? 0;
    features.sort((a, b) => at(b, 1) - at(a, 1) || at(a, 0) - at(b, 0));
    for (const feature of features) {
      const [lon = 0, lat = 0] = feature.geometry.coordinates;
      const properties = feature.properties as Partial<ClusterProperties> & { id?: string };
      if (properties.cluster && properties.cluster_id !== undefined) {
        const clusterId = properties.cluster_id;
        const count = properties.point_count ?? 0;
        const marker = L.marker([lat, lon], { icon: markerIcon(String(count), "bg-foreground text-background", [40, 40]) }).addTo(layer);
        onActivate(marker, `${count} tasks here. Zoom in`, () => {
          map.setView([lat, lon], Math.min(index.getClusterExpansionZoom(clusterId), map.getMaxZoom()));
          map.getContainer().focus();
        });
        continue;
      }
      const task = properties.id ? byId.get(properties.id) : undefined;
      if (!task) continue;
      const marker = L.marker([lat, lon], {
        icon: markerIcon(markerPrice(task.budget), "bg-primary text-primary-foreground", [64, 28]),
        riseOnHover: true,
      }).addTo(layer);
      onActivate(marker, `Task: ${task.title}, ${markerPrice(task.budget)}`, () => setSelectedId(task.id));
      marker.getElement()?.setAttribute("data-testid", "map-marker");
    }
    return () => {
      layer.remove();
    };
  }, [map, index, byId, viewVersion]);

  const selected = selectedId ? byId.get(selectedId) : undefined;
  useEffect(() => {
    if (selectedId) card.current?.focus();
  }, [selectedId]);

  const unplaced = tasks.length - placed.length;
  return (
    <div className="grid gap-4">
      <div className="relative isolate overflow-hidden rounded-lg border">
        <div
          ref={container}
          role="region"
          aria-label="Map of open tasks. Arrow keys move the map, plus and minus zoom; Tab reaches each task."
          className="h-[60vh] max-h-[40rem] min-h-80 w-full bg-muted"
          data-testid="board-map"
        />
        {moved && (
          <div className="pointer-events-none absolute inset-x-0 top-3 z-[1000] flex justify-center">
            <Button
              size="sm"
              className="pointer-events-auto shadow-md"
              onClick={() => {
                if (!map) return;
                const next = viewBbox(map.getBounds());
                searched.current = next;
                setMoved(false);
                setSelectedId(null);
                onSearchArea(next);
                // The button goes away; focus stays on the map rather than falling to the page.
                map.getContainer().focus();
              }}
            >
              <Search aria-hidden="true" /> Search this area
            </Button>
          </div>
        )}
        {tilesUnavailable && <TilesUnavailable />}
        {query.isFetching && (
          <div role="status" className="absolute right-3 bottom-8 z-[1000] flex items-center gap-2 rounded-md bg-background/90 px-2 py-1 text-sm">
            <LoaderCircle className="size-4 animate-spin text-primary" aria-hidden="true" /> Loading tasks...
          </div>
        )}
      </div>

      {query.isError ? (
        <Alert role="alert" variant="destructive">
          <AlertDescription>{errorMessage(query.error, "Failed to load tasks. Please try again.")}</AlertDescription>
        </Alert>
      ) : (
        query.isSuccess && (
          <p role="status" className="text-sm text-muted-foreground">
            {tasks.length === 0
              ? emptyMessage
              : tasks.length >= MAP_TASKS_LIMIT
                ? `Showing the first ${MAP_TASKS_LIMIT} tasks. Zoom in and search this area to see the rest.`
                : `${placed.length} ${placed.length === 1 ? "task" : "tasks"} on the map.`}
            {unplaced > 0 && ` ${unplaced} without a place ${unplaced === 1 ? "is" : "are"} in the list only.`}
          </p>
        )
      )}

      {selected && (
        <div ref={card} tabIndex={-1} role="region" aria-label={`Selected task: ${selected.title}`} className="max-w-md outline-none" data-testid="map-card">
          {renderCard(selected)}
        </div>
      )}
    </div>
  );
}
