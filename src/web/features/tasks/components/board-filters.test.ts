import { describe, expect, it } from "vitest";
import { boardHides, filterChips, noMatchMessage, readBoardFilters, withoutChip, writeBoardFilters } from "./board-filters";

describe("the board's filters in the URL", () => {
  it("reads each valid filter and drops wrong ones", () => {
    expect(readBoardFilters(new URLSearchParams("near=21401&radiusMiles=10&minBudget=20&maxBudget=80.5&when=today&category=pet"))).toEqual({
      near: "21401",
      radiusMiles: 10,
      minBudget: 20,
      maxBudget: 80.5,
      when: "today",
    });
    expect(readBoardFilters(new URLSearchParams("near=abc&radiusMiles=10&minBudget=-3&when=soon"))).toEqual({});
    expect(readBoardFilters(new URLSearchParams("near=21401&radiusMiles=7"))).toEqual({ near: "21401" });
    expect(readBoardFilters(new URLSearchParams("minBudget=50&maxBudget=10"))).toEqual({ minBudget: 50 });
  });

  it("writes them back beside the other parameters, and a radius only with a place", () => {
    const next = writeBoardFilters(new URLSearchParams("category=pet&radiusMiles=5&when=today"), { minBudget: 20, radiusMiles: 10 });
    expect(next.toString()).toBe("category=pet&minBudget=20");
    expect(writeBoardFilters(new URLSearchParams(), { near: "38.98,-76.49", radiusMiles: 25 }).toString()).toBe("near=38.98%2C-76.49&radiusMiles=25");
  });

  it("shows one chip per filter, and removing a chip removes what it shows", () => {
    const values = { near: "21401", radiusMiles: 10, minBudget: 20, maxBudget: 80, when: "this_week" } as const;
    expect(filterChips(values).map((c) => c.label)).toEqual(["Within 10 mi of 21401", "$20 to $80", "This week"]);
    expect(filterChips({ maxBudget: 12.5 }).map((c) => c.label)).toEqual(["Up to $12.50"]);
    // "Near me" keeps its coordinates in the address; the chip never shows them (issue 27).
    expect(filterChips({ near: "38.98,-76.49", radiusMiles: 25 }).map((c) => c.label)).toEqual(["Near me, within 25 mi"]);
    expect(filterChips({ near: "38.98, -76.49" }).map((c) => c.label)).toEqual(["Near me"]);
    expect(withoutChip(values, "near")).toEqual({ minBudget: 20, maxBudget: 80, when: "this_week" });
    expect(withoutChip(values, "minBudget")).toEqual({ near: "21401", radiusMiles: 10, when: "this_week" });
  });
});

describe("noMatchMessage", () => {
  const counts = [
    { radiusMiles: 5, count: 0 },
    { radiusMiles: 10, count: 0 },
    { radiusMiles: 25, count: 14 },
    { radiusMiles: 50, count: 30 },
  ];

  it("names the nearest wider radius that has tasks", () => {
    expect(noMatchMessage({ near: "21401", radiusMiles: 10 }, counts)).toBe("No tasks within 10 miles; 14 within 25.");
    expect(noMatchMessage({ near: "21401", radiusMiles: 5 }, counts)).toBe("No tasks within 5 miles; 14 within 25.");
  });

  it("otherwise says which filters to remove", () => {
    expect(noMatchMessage({ near: "21401", radiusMiles: 50, when: "today" }, counts)).toBe(
      "No tasks within 50 miles. Try removing the date filter.",
    );
    expect(noMatchMessage({ near: "21401", radiusMiles: 5, minBudget: 500 }, counts.map((c) => ({ ...c, count: 0 })))).toBe(
      "No tasks within 5 miles. Try removing the budget filter, or search a wider area.",
    );
    expect(noMatchMessage({ minBudget: 500 }, undefined)).toBe("No tasks match these filters. Try removing the budget filter.");
  });
});

describe("the map's area in the URL (decision 031)", () => {
  it("reads a valid bbox, drops a wrong one, and shows it as one removable chip", () => {
    expect(readBoardFilters(new URLSearchParams("bbox=-76.8,38.8,-76.3,39.4&view=map"))).toEqual({ bbox: "-76.8,38.8,-76.3,39.4" });
    expect(readBoardFilters(new URLSearchParams("bbox=-76.3,38.8,-76.8,39.4"))).toEqual({});
    expect(readBoardFilters(new URLSearchParams("bbox=1,2,3"))).toEqual({});
    const values = { bbox: "-76.8,38.8,-76.3,39.4", when: "today" } as const;
    expect(filterChips(values).map((c) => c.label)).toEqual(["Today", "In the map area"]);
    expect(withoutChip(values, "bbox")).toEqual({ when: "today" });
    expect(writeBoardFilters(new URLSearchParams("view=map&bbox=1,2,3,4"), { when: "today" }).toString()).toBe("view=map&when=today");
  });

  it("says to move or zoom out the map when its area is empty", () => {
    expect(noMatchMessage({ bbox: "-76.8,38.8,-76.3,39.4" }, undefined)).toBe(
      "No tasks in this area of the map. Zoom out or move the map, then search this area.",
    );
  });
});

describe("the cards a viewer's board leaves out (list and map)", () => {
  const BLOCKED = "00000000-0000-4000-8000-0000000000b1";
  const OTHER = "00000000-0000-4000-8000-0000000000b2";
  const cards = [
    { id: "t1", userId: BLOCKED },
    { id: "t2", userId: OTHER },
    { id: "t3", userId: OTHER },
    { id: "t4", userId: BLOCKED },
  ];

  it("hides every task of a person the viewer blocked, and the tasks whose poster declined them", () => {
    expect(cards.filter((card) => !boardHides(new Set(["t3"]), [BLOCKED])(card)).map((card) => card.id)).toEqual(["t2"]);
  });

  it("hides nothing for a viewer who blocked nobody and was declined nowhere", () => {
    expect(cards.filter((card) => !boardHides(new Set(), [])(card))).toEqual(cards);
  });
});
