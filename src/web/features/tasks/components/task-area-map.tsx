import L from "leaflet";
import { useEffect, useMemo, useRef } from "react";
import type { TaskDetail } from "@shared/tasks";
import { useLeafletMap, useTiles } from "./leaflet-map";
import { TilesUnavailable } from "./tiles-unavailable";

// The task page's small map (docs/product.md#job-board-map): the approximate area as a circle, never
// a pin on the address. A route shows its start, and its end to the people who may see the route's
// addresses (the public answer carries only the start's approximate position).

/** The 0.01° grid strangers see (about a kilometre): a circle of this radius covers the cell. */
const AREA_METERS = 900;

const approx = (v: number) => Math.round(v * 100) / 100;

interface AreaPoint {
  lat: number;
  lon: number;
}

/** The circles to draw: the approximate position; for a route its start and, when known, its end. */
function taskAreas(task: TaskDetail): AreaPoint[] {
  if (task.approxLat === null || task.approxLon === null) return [];
  const first = { lat: task.approxLat, lon: task.approxLon };
  if (!task.isRoute || task.visibility !== "private" || task.endLat === null || task.endLon === null) return [first];
  return [first, { lat: approx(task.endLat), lon: approx(task.endLon) }];
}

export default function TaskAreaMap({ task, description }: { task: TaskDetail; description: string }) {
  const areas = useMemo(() => taskAreas(task), [task]);
  const container = useRef<HTMLDivElement>(null);
  // A picture of the area, not a place to browse: no dragging, zooming or keyboard stops.
  const map = useLeafletMap(container, {
    dragging: false,
    scrollWheelZoom: false,
    doubleClickZoom: false,
    touchZoom: false,
    boxZoom: false,
    keyboard: false,
    zoomControl: false,
  });
  const tilesUnavailable = useTiles(map);

  useEffect(() => {
    if (!map || areas.length === 0) return;
    // The view first: a layer added to a map without one waits, and a circle has no bounds until added.
    const bounds = L.latLngBounds([]);
    for (const a of areas) bounds.extend(L.latLng(a.lat, a.lon).toBounds(AREA_METERS * 2));
    map.fitBounds(bounds, { padding: [16, 16], maxZoom: 13, animate: false });
    const layer = L.layerGroup().addTo(map);
    areas.forEach((a, i) =>
      L.circle([a.lat, a.lon], { radius: AREA_METERS, color: i === 0 ? "#0d9488" : "#b45309", weight: 2, fillOpacity: 0.2, interactive: false }).addTo(layer),
    );
    if (areas.length > 1) {
      L.polyline(
        areas.map((a) => [a.lat, a.lon] as L.LatLngTuple),
        { color: "#475569", weight: 2, dashArray: "6 6", interactive: false },
      ).addTo(layer);
    }
    return () => {
      layer.remove();
    };
  }, [map, areas]);

  return (
    <figure className="relative isolate h-full overflow-hidden rounded-lg border" data-testid="task-area-map">
      <figcaption className="sr-only">{description}</figcaption>
      <div ref={container} className="size-full bg-muted" />
      {tilesUnavailable && <TilesUnavailable compact />}
    </figure>
  );
}
