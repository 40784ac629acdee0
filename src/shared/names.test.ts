import { describe, expect, it } from "vitest";
import { DELETED_USER, displayInitials, displayName, endSentence, initials } from "./names.js";

describe("initials", () => {
  it("takes the first letters, trimmed and upper-cased, and falls back to U", () => {
    expect(initials({ firstName: " ada", lastName: "lovelace " })).toBe("AL");
    expect(initials({ firstName: "Cher", lastName: "" })).toBe("C");
    expect(initials({ firstName: " ", lastName: " " })).toBe("U");
    expect(initials(null)).toBe("U");
  });
});

describe("displayName", () => {
  it("shows the first name and the last initial, never the full last name", () => {
    expect(displayName({ firstName: " Maria ", lastName: "garcia" })).toBe("Maria G.");
  });
  it("copes with a missing part", () => {
    expect(displayName({ firstName: "Maria", lastName: " " })).toBe("Maria");
    expect(displayName({ firstName: "", lastName: "Garcia" })).toBe("G.");
    expect(displayName({ firstName: " ", lastName: "" })).toBe("Errandly member");
  });
  it("calls a deleted account \"Deleted user\", not \"Deleted U.\"", () => {
    expect(displayName(DELETED_USER)).toBe("Deleted user");
  });
});

describe("endSentence", () => {
  it("adds one full stop, never a second after an initial", () => {
    expect(endSentence("$42.50 will be released to Maria G.")).toBe("$42.50 will be released to Maria G.");
    expect(endSentence("$42.50 will be released to Maria")).toBe("$42.50 will be released to Maria.");
  });
});

describe("displayInitials", () => {
  it("takes the first letter of the first two words of a display name", () => {
    expect(displayInitials("Maria G.")).toBe("MG");
    expect(displayInitials(" ada ")).toBe("A");
    expect(displayInitials("G.")).toBe("G");
    expect(displayInitials("")).toBe("U");
  });
});
