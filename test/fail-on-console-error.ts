import { afterEach, beforeEach, vi } from "vitest";

// An unexpected console.error is a bug: fail the test unless it mocked console.error itself. The
// call throws where it was made; a call whose throw was swallowed (React reports some errors from
// its own try/catch) still fails the test when it ends.
let spy: ReturnType<typeof vi.spyOn> | null = null;
let calls: string[] = [];

beforeEach(() => {
  calls = [];
  spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    const message = `console.error called: ${args.map(String).join(" ")}`;
    calls.push(message);
    throw new Error(message);
  });
});

afterEach(() => {
  spy?.mockRestore();
  if (calls.length > 0) throw new Error(calls.join("\n"));
});
