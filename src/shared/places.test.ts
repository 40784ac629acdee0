import { describe, expect, it } from "vitest";
import { formatPlace } from "./places.js";

describe("formatPlace", () => {
  it("joins the address, town and state, leaving out what is missing", () => {
    expect(formatPlace("12 Main St", "Annapolis", "MD")).toBe("12 Main St, Annapolis, MD");
    expect(formatPlace(null, " Annapolis ", "MD")).toBe("Annapolis, MD");
    expect(formatPlace(" ", null, undefined)).toBeNull();
  });

  it("does not repeat a town or state the address already holds, in any case, before a ZIP code too", () => {
    expect(formatPlace("Annapolis", "Annapolis", "MD")).toBe("Annapolis, MD");
    expect(formatPlace("12 Main St, annapolis, MD 21401", "Annapolis", "MD")).toBe("12 Main St, annapolis, MD 21401");
  });

  it("keeps a town or state that only appears inside a street's name", () => {
    expect(formatPlace("12 Annapolis Rd", "Annapolis", "MD")).toBe("12 Annapolis Rd, Annapolis, MD");
    expect(formatPlace("4 Mdx Way", "Bowie", "MD")).toBe("4 Mdx Way, Bowie, MD");
  });
});
