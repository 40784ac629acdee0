import { describe, expect, it } from "vitest";
import { boardFilterFields, boardFiltersSchema } from "./task-filter-schemas.js";
import { parseBboxFilter, parseNearFilter, readBudgetFilter, readRadiusFilter, readWhenFilter } from "./task-filters.js";

describe("boardFiltersSchema", () => {
  it("accepts the form's values and reads them as the API does", () => {
    expect(boardFiltersSchema.parse({ near: "21401", radiusMiles: "25", minBudget: "20", maxBudget: "80", when: "today" })).toEqual({
      near: { kind: "zip", zip: "21401" },
      radiusMiles: 25,
      minBudget: 20,
      maxBudget: 80,
      when: "today",
    });
  });

  it("refuses a radius without near, and min above max, under the field to change", () => {
    const result = boardFiltersSchema.safeParse({ radiusMiles: "10", minBudget: "90", maxBudget: "10" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join("."))).toEqual(["radiusMiles", "minBudget"]);
  });
});

// The job board reads its address with task-filters.ts's readers, the API its query with these
// schemas: both must take and refuse the same values.
describe("the plain readers agree with the query's schemas", () => {
  const samples = [
    "", " ", "0", "5", "10", "25", "50", "7", "-3", "20", "80.5", "1e3", "0x19", " 25 ", "100000", "100000.01", "Infinity", "NaN", "abc",
    "today", "this_week", "flexible", "soon", "21401", " 21401 ", "2140", "38.98,-76.49", "38.98, -76.49", "91,0", "0,181",
    `21401${" ".repeat(56)}`, `21401${" ".repeat(55)}`, "-76.8,38.8,-76.3,39.4", "-76.3,38.8,-76.8,39.4", "1,2,3", `-76.8,38.8,-76.3,39.4${"0".repeat(80)}`,
  ];
  const value = <T>(result: { success: boolean; data?: T }) => (result.success ? result.data : undefined);
  it.each(samples)("%j", (text) => {
    const near = parseNearFilter(text);
    expect(typeof near === "string" ? undefined : near).toEqual(value(boardFilterFields.near.safeParse(text)));
    expect(readRadiusFilter(text)).toEqual(value(boardFilterFields.radiusMiles.safeParse(text)));
    expect(readBudgetFilter(text)).toEqual(value(boardFilterFields.minBudget.safeParse(text)));
    expect(readWhenFilter(text)).toEqual(value(boardFilterFields.when.safeParse(text)));
    const bbox = parseBboxFilter(text);
    expect(typeof bbox === "string" ? undefined : bbox).toEqual(value(boardFilterFields.bbox.safeParse(text)));
  });
});
