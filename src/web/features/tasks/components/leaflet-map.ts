import L from "leaflet";
// Leaflet's style sheet loads with the map chunk only: this module is reached through React.lazy
// (lazy-maps.tsx), so no page's first load carries it (docs/decisions/031-job-board-map.md).
import "leaflet/dist/leaflet.css";
import "./leaflet-map.css";
import { useEffect, useState, type RefObject } from "react";
import { useMapConfig } from "../api/get-map-config";

/** A Leaflet map on the element, made once and removed with the component. */
export function useLeafletMap(ref: RefObject<HTMLDivElement | null>, options: L.MapOptions): L.Map | null {
  const [map, setMap] = useState<L.Map | null>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    // Without motion when the person asks for less: zooms jump instead of gliding.
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    const created = L.map(element, { zoomAnimation: !still, fadeAnimation: !still, markerZoomAnimation: !still, ...options });
    setMap(created);
    return () => {
      created.remove();
      setMap(null);
    };
    // The options are read once, when the map is made.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ref]);
  return map;
}

/** Leaflet writes the attribution as HTML; the operator's text is shown as text. */
const asText = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The configured tiles on the map. True when they cannot be had (offline, a blocked or failing tile
 * server, or no config): the map then shows its markers on a blank background and says so. One
 * failing tile after others loaded is a hiccup, not an outage.
 */
export function useTiles(map: L.Map | null): boolean {
  const config = useMapConfig();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!map || !config.data) return;
    let loaded = false;
    const layer = L.tileLayer(config.data.tileUrl, { attribution: asText(config.data.attribution), maxZoom: 19 });
    layer.on("tileload", () => {
      loaded = true;
      setFailed(false);
    });
    layer.on("tileerror", () => {
      if (!loaded) setFailed(true);
    });
    layer.addTo(map);
    return () => {
      layer.remove();
    };
  }, [map, config.data]);
  return failed || config.isError;
}
