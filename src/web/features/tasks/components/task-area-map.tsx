import { useMemo, useState } from "react";
import type { TaskDetail } from "@shared/tasks";
import { useMapConfig } from "../api/get-map-config";
import { publicPlace } from "./task-format";
import { TilesUnavailable } from "./tiles-unavailable";

// The task page's small map (docs/product.md#job-board-map): the approximate area as a circle, never
// a pin on the address. A route shows its start, and its end to the people who may see the route's
// addresses (the public answer carries only the start's approximate position). A picture, not a
// map to browse: a few tiles and an SVG circle, without Leaflet, so the task page's first load
// stays as it was (docs/decisions/031-job-board-map.md); the tiles load lazily, as images.

const TILE = 256;
/** The 0.01° grid strangers see (about a kilometre): a circle of this radius covers the cell. */
const AREA_METERS = 900;
/** Half the room the picture keeps around its circles, in pixels: the box is 192 px tall, at least ~340 wide. */
const ROOM = { x: 130, y: 60 };
/** Tiles drawn around the centre: enough for a 1,280 px wide box, clipped by it. */
const SPAN = { x: 640, y: 128 };

interface Point {
  lat: number;
  lon: number;
}

const approx = (v: number) => Math.round(v * 100) / 100;

/** The circles to draw: the approximate position; for a route its start and, when known, its end. */
function taskAreas(task: TaskDetail): Point[] {
  if (task.approxLat === null || task.approxLon === null) return [];
  const first = { lat: task.approxLat, lon: task.approxLon };
  if (!task.isRoute || task.visibility !== "private" || task.endLat === null || task.endLon === null) return [first];
  return [first, { lat: approx(task.endLat), lon: approx(task.endLon) }];
}

/** Web Mercator: a point's pixel on the world at zoom z (the tile servers' projection). */
function pixel({ lat, lon }: Point, zoom: number): { x: number; y: number } {
  const size = TILE * 2 ** zoom;
  const sin = Math.sin((lat * Math.PI) / 180);
  return { x: ((lon + 180) / 360) * size, y: (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * size };
}

const metersPerPixel = (lat: number, zoom: number) => (40_075_016.686 * Math.cos((lat * Math.PI) / 180)) / (TILE * 2 ** zoom);

/** The closest zoom (13 at most) at which every circle fits the room. */
function fitZoom(points: Point[]): number {
  for (let zoom = 13; zoom > 3; zoom -= 1) {
    const px = points.map((p) => pixel(p, zoom));
    const radius = AREA_METERS / metersPerPixel(points[0]?.lat ?? 0, zoom);
    const width = Math.max(...px.map((p) => p.x)) - Math.min(...px.map((p) => p.x)) + 2 * radius;
    const height = Math.max(...px.map((p) => p.y)) - Math.min(...px.map((p) => p.y)) + 2 * radius;
    if (width <= 2 * ROOM.x && height <= 2 * ROOM.y) return zoom;
  }
  return 3;
}

const tileUrl = (template: string, z: number, x: number, y: number) =>
  template.replace("{s}", "a").replace("{z}", String(z)).replace("{x}", String(x)).replace("{y}", String(y)).replace("{r}", "");

export function TaskAreaMap({ task }: { task: TaskDetail }) {
  const config = useMapConfig();
  // Failed tiles are hidden by key: a tile that cannot load showed the browser's broken-image icon.
  const [tiles, setTiles] = useState<{ loaded: number; failed: ReadonlySet<string> }>({ loaded: 0, failed: new Set() });
  const picture = useMemo(() => {
    const points = taskAreas(task);
    if (points.length === 0) return null;
    const zoom = fitZoom(points);
    const px = points.map((p) => pixel(p, zoom));
    const centre = { x: (Math.min(...px.map((p) => p.x)) + Math.max(...px.map((p) => p.x))) / 2, y: (Math.min(...px.map((p) => p.y)) + Math.max(...px.map((p) => p.y))) / 2 };
    const count = 2 ** zoom;
    const grid: { x: number; y: number; left: number; top: number }[] = [];
    for (let ty = Math.floor((centre.y - SPAN.y) / TILE); ty <= Math.floor((centre.y + SPAN.y) / TILE); ty += 1) {
      for (let tx = Math.floor((centre.x - SPAN.x) / TILE); tx <= Math.floor((centre.x + SPAN.x) / TILE); tx += 1) {
        if (ty >= 0 && ty < count) grid.push({ x: ((tx % count) + count) % count, y: ty, left: tx * TILE - centre.x, top: ty * TILE - centre.y });
      }
    }
    const radius = AREA_METERS / metersPerPixel(points[0]?.lat ?? 0, zoom);
    return { zoom, grid, radius, circles: px.map((p) => ({ x: p.x - centre.x, y: p.y - centre.y })) };
  }, [task]);
  if (!picture) return null;

  // Unavailable: the config could not be read, or every tile tried failed before one loaded.
  const unavailable = config.isError || (tiles.failed.size > 0 && tiles.loaded === 0);
  const [start, end] = picture.circles;
  return (
    <figure className="relative isolate h-48 overflow-hidden rounded-lg border bg-muted" data-testid="task-area-map">
      <figcaption className="sr-only">Map of the approximate area of this task ({publicPlace(task)}), not its address</figcaption>
      <div className="absolute top-1/2 left-1/2" aria-hidden="true">
        {config.data &&
          picture.grid.map((t) => {
            const key = `${t.x}/${t.y}/${t.left}`;
            return tiles.failed.has(key) ? null : (
              <img
                key={key}
                src={tileUrl(config.data.tileUrl, picture.zoom, t.x, t.y)}
                alt=""
                width={TILE}
                height={TILE}
                loading="lazy"
                className="absolute max-w-none"
                style={{ left: t.left, top: t.top }}
                onLoad={() => setTiles((s) => ({ ...s, loaded: s.loaded + 1 }))}
                onError={() => setTiles((s) => ({ ...s, failed: new Set(s.failed).add(key) }))}
              />
            );
          })}
        <svg className="absolute overflow-visible" width="1" height="1" data-testid="task-area-circles">
          {start && end && <line x1={start.x} y1={start.y} x2={end.x} y2={end.y} stroke="#475569" strokeWidth={2} strokeDasharray="6 6" />}
          {picture.circles.map((c, i) => (
            <circle key={i} cx={c.x} cy={c.y} r={picture.radius} fill={i === 0 ? "#0d9488" : "#b45309"} fillOpacity={0.2} stroke={i === 0 ? "#0d9488" : "#b45309"} strokeWidth={2} />
          ))}
        </svg>
      </div>
      {config.data && <p className="absolute right-0 bottom-0 bg-background/80 px-1 text-[11px] text-foreground">{config.data.attribution}</p>}
      {unavailable && <TilesUnavailable compact />}
    </figure>
  );
}
