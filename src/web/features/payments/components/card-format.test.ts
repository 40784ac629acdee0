import { describe, expect, it } from "vitest";
import { formatExpiry, groupDigits } from "./card-format";

describe("card formatting", () => {
  it.each([
    ["1230", "12/30"],
    ["12", "12"],
    ["123", "12/3"],
    ["12/", "12/"],
    ["12/3", "12/3"],
    ["12/34", "12/34"],
    ["12/2030", "12/30"],
    ["122030", "12/30"],
    ["5/", "05/"],
    ["12345", "12/34"],
    ["ab12cd30", "12/30"],
  ])("formats the expiry %s as %s", (typed, shown) => {
    expect(formatExpiry(typed)).toBe(shown);
  });

  it("groups the card number in fours", () => {
    expect(groupDigits("4242424242424242")).toBe("4242 4242 4242 4242");
  });
});
