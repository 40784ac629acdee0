import { describe, expect, it } from "vitest";
import "./zod-jitless";

describe("zod-jitless", () => {
  it("is the setting zod itself reads", async () => {
    const { config } = await import("zod/v4/core");
    expect(config().jitless).toBe(true);
  });
});
