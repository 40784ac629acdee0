import { describe, expect, it } from "vitest";
import type { GeocodeResult } from "../../../shared/tasks.js";
import { call, useTestApp } from "../../../../test/create-test-app.js";

// GET /api/geocode on the embedded gazetteer (GEOCODER_URL unset).

const t = await useTestApp();

const search = (q: string, ip = "10.0.0.1") =>
  t.app.inject({ url: `/api/geocode?q=${encodeURIComponent(q)}`, remoteAddress: ip });

describe("GET /api/geocode", () => {
  it("places a street address in its town and keeps the street", async () => {
    const res = await search("58 West St, Annapolis, MD 21401");
    expect(res.statusCode).toBe(200);
    const [first] = res.json() as GeocodeResult[];
    expect(first).toMatchObject({ fullAddress: "58 West St", city: "Annapolis", state: "MD", displayName: "58 West St, Annapolis, MD 21401" });
    expect(first?.lat).toBeCloseTo(38.99, 1);
    expect(first?.lon).toBeCloseTo(-76.55, 1);
  });

  it.each([
    ["Annapolis, MD", "Annapolis", "MD"],
    ["annapolis maryland", "Annapolis", "MD"],
    ["21401", "Annapolis", "MD"],
    ["10275 Little Patuxent Pkwy, Columbia, MD", "Columbia", "MD"],
  ])("resolves %s", async (q, city, state) => {
    const [first] = (await search(q)).json() as GeocodeResult[];
    expect(first).toMatchObject({ city, state });
  });

  it("completes a town prefix with at most 5 US results, bigger towns first", async () => {
    const res = await search("Baltim");
    const body = res.json() as GeocodeResult[];
    expect(body.length).toBeGreaterThan(0);
    expect(body.length).toBeLessThanOrEqual(5);
    expect(body[0]).toMatchObject({ city: "Baltimore", state: "MD", fullAddress: "Baltimore" });
    for (const r of body) expect(r.city.toLowerCase().startsWith("baltim")).toBe(true);
  });

  // A street typed before a town still being typed, or without commas, is offered as typed in
  // the towns it may name, rather than nothing (issue 27).
  it("offers a typed street in each town its last part begins", async () => {
    const body = (await search("12 Duke of Gloucester St, Annap")).json() as GeocodeResult[];
    expect(body[0]).toMatchObject({ fullAddress: "12 Duke of Gloucester St", city: "Annapolis", state: "MD", displayName: "12 Duke of Gloucester St, Annapolis, MD 21401" });
    expect(body.length).toBeGreaterThan(1);
    for (const r of body) expect(r).toMatchObject({ fullAddress: "12 Duke of Gloucester St", city: expect.stringMatching(/^Annap/) });
  });

  it.each(["12 Duke of Gloucester St Annapolis MD", "12 Duke of Gloucester St Annapolis, MD", "12 Duke of Gloucester St Glen Burnie"])(
    "finds the town at the end of %s typed without a comma before it",
    async (q) => {
      const [first] = (await search(q)).json() as GeocodeResult[];
      expect(first).toMatchObject({ fullAddress: "12 Duke of Gloucester St", state: "MD" });
      expect(first?.city).toBe(q.includes("Glen Burnie") ? "Glen Burnie" : "Annapolis");
    },
  );

  it("answers an empty list for a street without a town and for Canadian places", async () => {
    expect((await search("58 West St")).json()).toEqual([]);
    expect((await search("Toronto, ON")).json()).toEqual([]);
  });

  it.each([
    ["", /q: q must be at least 3 characters/],
    ["ab", /q: q must be at least 3 characters/],
    ["  a ", /q: q must be at least 3 characters/],
    ["x".repeat(201), /q: q must be at most 200 characters/],
  ])("refuses q=%j with 400", async (q, message) => {
    const res = await search(q);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
  });

  it("refuses a missing q with 400", async () => {
    const res = await call(t, null, { url: "/api/geocode" });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/q/);
  });

  it("limits each IP to 60 searches a minute", async () => {
    const codes: number[] = [];
    for (let i = 0; i < 61; i++) codes.push((await search("Frederick, MD", "10.9.9.9")).statusCode);
    expect(codes.slice(0, 60).every((c) => c === 200)).toBe(true);
    expect(codes[60]).toBe(429);
    expect((await search("Frederick, MD", "10.9.9.10")).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await search("Frederick, MD", "10.9.9.9")).statusCode).toBe(200);
  });
});
