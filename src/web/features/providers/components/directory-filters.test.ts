import { describe, expect, it } from "vitest";
import { providersUrl } from "../api/get-providers";
import { directoryQuery, readDirectoryFilters } from "./directory-filters";

describe("the directory's filters in the URL", () => {
  it("reads each valid filter and drops wrong ones", () => {
    expect(readDirectoryFilters(new URLSearchParams("near=21401&radiusMiles=10&serviceType=pet&minRating=4.5&sort=completed"))).toEqual({
      near: "21401",
      radiusMiles: 10,
      serviceType: "pet",
      minRating: 4.5,
      sort: "completed",
    });
    expect(readDirectoryFilters(new URLSearchParams("near=x&radiusMiles=10&serviceType=gardening&minRating=9&sort=price"))).toEqual({});
    expect(readDirectoryFilters(new URLSearchParams("radiusMiles=10&sort=name"))).toEqual({});
  });

  it("writes the page's query and the API's URL with the set values only", () => {
    const values = { near: "21401", radiusMiles: 25, minRating: 4, sort: "rating" } as const;
    expect(directoryQuery(values)).toBe("near=21401&radiusMiles=25&minRating=4&sort=rating");
    expect(providersUrl(values)).toBe("/api/providers?near=21401&radiusMiles=25&minRating=4&sort=rating");
    expect(providersUrl({ radiusMiles: 25, sort: "name" })).toBe("/api/providers");
  });
});
