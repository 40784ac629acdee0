import type { LightMyRequestResponse } from "fastify";
import { describe, expect, it } from "vitest";
import { DEFAULT_MAP_TILE_URL, type MapConfig } from "../../../shared/map.js";
import { parseEnv } from "../../config/env.js";
import { call, useTestApp } from "../../../../test/create-test-app.js";

// The map's tile source (docs/decisions/031-job-board-map.md): the web learns it from the server,
// and the Content-Security-Policy lets images come from exactly that host.

const imgSrc = (res: LightMyRequestResponse) =>
  (String(res.headers["content-security-policy"]).split(";").map((d) => d.trim().split(/\s+/)).find((d) => d[0] === "img-src") ?? []).slice(1);

const standard = await useTestApp();
const own = await useTestApp({ MAP_TILE_URL: "https://tiles.example.org/osm/{z}/{x}/{y}.png", MAP_TILE_ATTRIBUTION: "© Example Tiles" });
const subdomains = await useTestApp({ MAP_TILE_URL: "https://{s}.maps.example.net/{z}/{x}/{y}@2x.png" });

describe("GET /api/map/config", () => {
  it("names OpenStreetMap's tiles by default, for anyone, and the CSP allows that host only", async () => {
    const res = await call(standard, null, { url: "/api/map/config" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ tileUrl: DEFAULT_MAP_TILE_URL, attribution: "© OpenStreetMap contributors" } satisfies MapConfig);
    expect(imgSrc(res)).toEqual(["'self'", "data:", "blob:", "https://tile.openstreetmap.org"]);
  });

  it("names the operator's tile server and allows exactly its host, not OpenStreetMap's", async () => {
    const res = await call(own, null, { url: "/api/map/config" });
    expect(res.json()).toEqual({ tileUrl: "https://tiles.example.org/osm/{z}/{x}/{y}.png", attribution: "© Example Tiles" });
    expect(imgSrc(res)).toEqual(["'self'", "data:", "blob:", "https://tiles.example.org"]);
    // Every answer carries the same policy, the app's pages included.
    expect(imgSrc(await call(own, null, { url: "/api/health" }))).toContain("https://tiles.example.org");
  });

  it("turns a {s} subdomain into one wildcard label of that host", async () => {
    const res = await call(subdomains, null, { url: "/api/map/config" });
    expect(imgSrc(res)).toEqual(["'self'", "data:", "blob:", "https://*.maps.example.net"]);
  });

  it.each([
    ["ftp://tiles.example.org/{z}/{x}/{y}.png"],
    ["https://tiles.example.org/{z}/{x}.png"],
    ["https://tiles.{s}.example.org/{z}/{x}/{y}.png"],
    ["not a url {z}{x}{y}"],
  ])("refuses MAP_TILE_URL=%s at boot, naming the variable", (value) => {
    expect(() => parseEnv({ MAP_TILE_URL: value })).toThrow(/MAP_TILE_URL: must be an http\(s\) URL/);
  });
});
