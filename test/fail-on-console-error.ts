import { afterEach, beforeEach, vi } from "vitest";

// An unexpected console.error is a bug: fail the test unless it mocked console.error itself.
let spy: ReturnType<typeof vi.spyOn> | null = null;

beforeEach(() => {
  spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error called: ${args.map(String).join(" ")}`);
  });
});

afterEach(() => {
  spy?.mockRestore();
});
