import { describe, expect, it } from "vitest";
import { whenOf } from "./earnings";

// The earnings row's "when" line for a task an admin's resolution settled (docs/product.md, Money: disputes).

const settled = {
  taskId: "00000000-0000-4000-8000-000000000001",
  title: "Move boxes",
  status: "settled" as const,
  earned: 35.37,
  tips: 0,
  releaseAt: null,
  releasedAt: "2026-11-29T09:21:00.000Z",
  refundedAt: null,
  completedAt: null,
};

describe("whenOf", () => {
  it("names the part refunded to the poster of a split", () => {
    expect(whenOf({ ...settled, refundedToPoster: 20 })).toMatch(/^Paid to you .+ by an admin's resolution of a reported problem; \$20\.00 was refunded to the poster$/);
  });

  it("says no refund when the resolution released everything", () => {
    const line = whenOf({ ...settled, refundedToPoster: 0 });
    expect(line).toMatch(/^Paid to you .+ by an admin's resolution of a reported problem$/);
    expect(line).not.toContain("$0.00");
  });
});
