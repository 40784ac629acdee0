import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { ManualTimers } from "../clock/manual-timers.js";
import { createNominatimGeocoder, toGeocodeResult } from "./nominatim-geocoder.js";

// The real adapter against a local fake of the Nominatim search protocol; its spacing and cache
// age run on virtual time.

interface Seen {
  url: URL;
  userAgent: string | undefined;
}

const seen: Seen[] = [];
let failNext = false;

const server = createServer((req: IncomingMessage, res) => {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  seen.push({ url, userAgent: req.headers["user-agent"] });
  if (failNext) {
    failNext = false;
    res.writeHead(503).end();
    return;
  }
  const q = url.searchParams.get("q") ?? "";
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify([
      {
        display_name: `58, West Street, Annapolis, Anne Arundel County, Maryland, 21401, United States (${q})`,
        lat: "38.9784",
        lon: "-76.4922",
        address: { house_number: "58", road: "West Street", city: "Annapolis", state: "Maryland" },
      },
      {
        display_name: "Crownsville, Anne Arundel County, Maryland, United States",
        lat: "39.0287",
        lon: "-76.6013",
        address: { village: "Crownsville", state: "Maryland" },
      },
    ]),
  );
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/search`;
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("Nominatim geocoder", () => {
  it("sends the usage-policy parameters and User-Agent and maps the answer", async () => {
    const geocoder = createNominatimGeocoder({ url: base, userAgent: "ErrandlyTest/1.0 (test@example.test)", minIntervalMs: 0 });
    const results = await geocoder.search("58 West St Annapolis", 5);
    const request = seen.at(-1);
    expect(request?.url.pathname).toBe("/search");
    expect(Object.fromEntries(request?.url.searchParams ?? [])).toEqual({
      q: "58 West St Annapolis",
      format: "json",
      addressdetails: "1",
      countrycodes: "us",
      limit: "5",
    });
    expect(request?.userAgent).toBe("ErrandlyTest/1.0 (test@example.test)");
    expect(results).toEqual([
      {
        displayName: "58, West Street, Annapolis, Anne Arundel County, Maryland, 21401, United States (58 West St Annapolis)",
        fullAddress: "58 West Street",
        city: "Annapolis",
        state: "MD",
        lat: 38.9784,
        lon: -76.4922,
      },
      {
        displayName: "Crownsville, Anne Arundel County, Maryland, United States",
        fullAddress: "Crownsville",
        city: "Crownsville",
        state: "MD",
        lat: 39.0287,
        lon: -76.6013,
      },
    ]);
  });

  it("spaces requests one second apart", async () => {
    const timers = new ManualTimers();
    // Measured where the adapter sends, in virtual time.
    const sentAt: number[] = [];
    const timedFetch: typeof fetch = (input, init) => {
      sentAt.push(timers.now());
      return fetch(input, init);
    };
    const geocoder = createNominatimGeocoder({ url: base, userAgent: "t", fetch: timedFetch, timers });
    const searches = Promise.all(["one", "two", "three"].map((n) => geocoder.search(`Annapolis ${n}`, 5)));
    for (const sent of [1, 2]) {
      // The next request waits for the interval: a millisecond short of it, nothing more is sent.
      await timers.untilSleeping();
      expect(sentAt).toHaveLength(sent);
      timers.advance(999);
      await new Promise((resolve) => setImmediate(resolve));
      expect(sentAt).toHaveLength(sent);
      timers.advance(1);
    }
    await searches;
    expect(sentAt).toEqual([0, 1000, 2000]);
  });

  it("caches answers, with a time to live and a size bound", async () => {
    const timers = new ManualTimers();
    const geocoder = createNominatimGeocoder({ url: base, userAgent: "t", minIntervalMs: 0, cacheTtlMs: 1000, cacheSize: 2, timers });
    const before = seen.length;
    await geocoder.search("Bowie", 5);
    await geocoder.search("  BOWIE ", 5);
    expect(seen.length - before).toBe(1);
    timers.advance(1000);
    await geocoder.search("Bowie", 5);
    expect(seen.length - before).toBe(2);
    // Size 2: a third query evicts the least recently used one.
    await geocoder.search("Laurel", 5);
    await geocoder.search("Bowie", 5);
    await geocoder.search("Towson", 5);
    expect(seen.length - before).toBe(4);
    await geocoder.search("Bowie", 5);
    expect(seen.length - before).toBe(4);
    await geocoder.search("Laurel", 5);
    expect(seen.length - before).toBe(5);
  });

  it("fails on an error answer and does not cache it", async () => {
    const geocoder = createNominatimGeocoder({ url: base, userAgent: "t", minIntervalMs: 0 });
    failNext = true;
    await expect(geocoder.search("Glen Burnie", 5)).rejects.toThrow(/503/);
    const results = await geocoder.search("Glen Burnie", 5);
    expect(results).toHaveLength(2);
  });

  it("maps a road without a number, a town before a village and an unknown state as empty", () => {
    expect(
      toGeocodeResult({ display_name: "Main Street, Laurel, Maryland", lat: 1, lon: 2, address: { road: "Main Street", town: "Laurel", village: "X", state: "Maryland" } }),
    ).toMatchObject({ fullAddress: "Main Street", city: "Laurel", state: "MD" });
    expect(toGeocodeResult({ display_name: "Somewhere", lat: 1, lon: 2, address: { state: "Ontario" } })).toMatchObject({
      fullAddress: "Somewhere",
      city: "",
      state: "",
    });
  });
});
