import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// No server file over MAX_LINES (issue 41): a file that long holds more than one responsibility,
// and is split along it (docs/decisions/083-every-consequence-in-its-row.md). No file is excepted.

const MAX_LINES = 400;

function serverFiles(dir = import.meta.dirname): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return serverFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

describe("the server's files", () => {
  it(`are at most ${MAX_LINES} lines`, () => {
    const files = serverFiles();
    expect(files.length).toBeGreaterThan(100);
    const over = files.flatMap((path) => {
      const name = relative(import.meta.dirname, path);
      const lines = readFileSync(path, "utf8").split("\n").length - 1;
      return lines > MAX_LINES ? [`${name}: ${lines} lines, at most ${MAX_LINES}`] : [];
    });
    expect(over).toEqual([]);
  });
});
