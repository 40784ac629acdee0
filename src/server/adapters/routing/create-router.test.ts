import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { routeMiles } from "../../../shared/felix-pricing.js";
import { ManualTimers } from "../clock/manual-timers.js";
import { createRouter } from "./create-router.js";

// The OSRM adapter against a local fake of the protocol; its timeout runs on virtual time.

let answer: (res: ServerResponse) => void = () => undefined;
const paths: string[] = [];
let arrived: () => void = () => undefined;
const server = createServer((req, res) => {
  paths.push(req.url ?? "");
  arrived();
  answer(res);
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

const reply = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

const points = [
  { lat: 38.9784, lon: -76.4922 },
  { lat: 39.1626, lon: -76.6247 },
  { lat: 39.2904, lon: -76.6122 },
];

describe("OSRM router", () => {
  const timers = new ManualTimers();
  const router = createRouter({ url, timeoutMs: 1_500, timers });

  it("asks for lon,lat pairs in order and converts meters to miles", async () => {
    answer = (res) => reply(res, 200, { code: "Ok", routes: [{ distance: 16093.44 }] });
    expect(await router.drivingMiles(points)).toBeCloseTo(10, 9);
    expect(paths.at(-1)).toBe("/route/v1/driving/-76.4922,38.9784;-76.6247,39.1626;-76.6122,39.2904?overview=false");
  });

  it.each([
    ["an HTTP 500", (res: ServerResponse) => reply(res, 500, { message: "down" })],
    ["no route", (res: ServerResponse) => reply(res, 200, { code: "NoRoute", routes: [] })],
    ["a negative distance", (res: ServerResponse) => reply(res, 200, { routes: [{ distance: -1 }] })],
  ])("falls back to the great-circle estimate on %s", async (_name, handler) => {
    answer = handler;
    expect(await router.drivingMiles(points)).toBe(routeMiles(points));
  });

  it("falls back to the great-circle estimate once the timeout passes without an answer", async () => {
    // The service never answers: only the timeout can end the call.
    answer = () => undefined;
    const received = new Promise<void>((resolve) => (arrived = resolve));
    let settled = false;
    const miles = router.drivingMiles(points).finally(() => (settled = true));
    await received;
    timers.advance(1_499);
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    timers.advance(1);
    expect(await miles).toBe(routeMiles(points));
  });

  it("needs no call for fewer than two points", async () => {
    const before = paths.length;
    expect(await router.drivingMiles(points.slice(0, 1))).toBe(0);
    expect(paths).toHaveLength(before);
  });

  it("estimates offline without a URL", async () => {
    expect(await createRouter().drivingMiles(points)).toBe(routeMiles(points));
  });
});
