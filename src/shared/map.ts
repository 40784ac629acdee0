import { z } from "zod";

// The map's tiles (docs/decisions/031-job-board-map.md): the server names the tile source
// (MAP_TILE_URL), the web reads it from GET /api/map/config, and the Content-Security-Policy allows
// that one host for images.

export const DEFAULT_MAP_TILE_URL = "https://tile.openstreetmap.org/{z}/{x}/{y}.png";
export const DEFAULT_MAP_ATTRIBUTION = "© OpenStreetMap contributors";

export const mapConfigSchema = z.object({
  /** A Leaflet tile template: {z}, {x} and {y}, optionally {s} for a subdomain. */
  tileUrl: z.string(),
  /** Plain text shown in the map's corner (the tile source's licence asks for it). */
  attribution: z.string(),
});
export type MapConfig = z.infer<typeof mapConfigSchema>;

/**
 * The CSP img-src source for a tile template: its origin, with a `{s}` subdomain as the one wildcard
 * label it stands for ("https://{s}.tile.example.org/..." → "https://*.tile.example.org").
 */
export function tileImageSource(tileUrl: string): string {
  const url = new URL(tileUrl.replaceAll("{s}", "s-subdomain"));
  return `${url.protocol}//${url.host.replace(/^s-subdomain\./, "*.")}`;
}
