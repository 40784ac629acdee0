import { describe, expect, it } from "vitest";
import { initials } from "./names.js";

describe("initials", () => {
  it("takes the first letters, trimmed and upper-cased, and falls back to U", () => {
    expect(initials({ firstName: " ada", lastName: "lovelace " })).toBe("AL");
    expect(initials({ firstName: "Cher", lastName: "" })).toBe("C");
    expect(initials({ firstName: " ", lastName: " " })).toBe("U");
    expect(initials(null)).toBe("U");
  });
});
