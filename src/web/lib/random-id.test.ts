import { describe, expect, it } from "vitest";
import { z } from "zod";
import { randomId } from "./random-id";

describe("randomId", () => {
  it("makes valid, distinct v4 UUIDs without randomUUID (an insecure context)", () => {
    const insecure = { getRandomValues: crypto.getRandomValues.bind(crypto) };
    const ids = Array.from({ length: 200 }, () => randomId(insecure));
    for (const id of ids) expect(z.uuidv4().safeParse(id).success, id).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("uses randomUUID where the browser offers it", () => {
    expect(randomId({ getRandomValues: (array) => array, randomUUID: () => "11111111-1111-4111-8111-111111111111" })).toBe(
      "11111111-1111-4111-8111-111111111111",
    );
  });
});
