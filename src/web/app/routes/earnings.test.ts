import { describe, expect, it } from "vitest";
import { rowWords } from "./earnings";

// An earnings row in the words of the provider's account (docs/product.md, Money: "/earnings").

const row = {
  taskId: "00000000-0000-4000-8000-000000000001",
  title: "Move boxes",
  status: "settled" as const,
  earned: 35.37,
  moved: true,
  tips: 0,
  refundedToPoster: 0,
  recovered: 0,
  releaseAt: null,
  movedAt: "2026-11-29T09:21:00.000Z",
  refundedAt: null,
  completedAt: null,
};

describe("an earnings row's words", () => {
  it("names the part refunded to the poster of a split", () => {
    expect(rowWords({ ...row, refundedToPoster: 20 }).when).toMatch(/^Paid to you .+ by an admin's resolution of a reported problem; \$20\.00 was refunded to the poster$/);
  });

  it("says no refund when the resolution released everything", () => {
    const { when } = rowWords(row);
    expect(when).toMatch(/^Paid to you .+ by an admin's resolution of a reported problem$/);
    expect(when).not.toContain("$0.00");
  });

  it("says You earned for money that moved and You earn only for money still to come", () => {
    expect(rowWords({ ...row, status: "released" })).toMatchObject({ status: "Released", amountLabel: "You earned" });
    expect(rowWords({ ...row, status: "late_fee", earned: 5 })).toMatchObject({ status: "Late-cancellation fee", amountLabel: "You earned" });
    expect(rowWords({ ...row, status: "held", moved: false, movedAt: null, releaseAt: "2026-11-30T09:21:00.000Z" })).toMatchObject({ status: "Held", amountLabel: "You earn" });
  });

  it("shows a refund recovered from the provider, not a release at the full amount", () => {
    const words = rowWords({ ...row, status: "recovered", earned: 20.5, recovered: 20 });
    expect(words.status).toBe("Refund recovered");
    expect(words.when).toMatch(/^Released .+; \$20\.00 was taken back for the poster's refund$/);
  });
});
