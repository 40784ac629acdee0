import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { decisionIndex, END, START, withDecisionIndex } from "./decision-index.js";

// The README's list of decision records is written by scripts/decision-index.ts, never by hand:
// it had skipped 057 to 061 and 063 to 065 (issue 42).

const ROOT = resolve(import.meta.dirname, "..");

describe("the README's decision index", () => {
  it("is what `npm run docs:decisions` writes", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme, "run `npm run docs:decisions`").toBe(withDecisionIndex(readme, decisionIndex(ROOT)));
  });

  it("has a line for every record", () => {
    const records = readdirSync(join(ROOT, "docs", "decisions")).filter((name) => name.endsWith(".md"));
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    for (const name of records) expect(readme).toContain(`](docs/decisions/${name})`);
  });
});

describe("decisionIndex", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function repository(records: Record<string, string>): string {
    const root = mkdtempSync(join(tmpdir(), "errandly-decisions-"));
    dirs.push(root);
    mkdirSync(join(root, "docs", "decisions"), { recursive: true });
    for (const [name, text] of Object.entries(records)) writeFileSync(join(root, "docs", "decisions", name), text);
    return root;
  }

  it("lists each record from its title line, in number order, whatever numbers exist", () => {
    const root = repository({
      "071-a-later-one.md": "# 071: A later one\n\nStatus: accepted\n",
      "002-second.md": "# 002: The second, with `code`\n",
      "001-first.md": "# 001: The first\n",
    });
    expect(decisionIndex(root)).toBe(
      [
        "- [001: The first](docs/decisions/001-first.md)",
        "- [002: The second, with `code`](docs/decisions/002-second.md)",
        "- [071: A later one](docs/decisions/071-a-later-one.md)",
      ].join("\n"),
    );
  });

  it.each([
    ["no title line", "Status: accepted\n"],
    ["a title with another number", "# 012: Copied from elsewhere\n"],
  ])("refuses a record with %s", (_case, text) => {
    const root = repository({ "066-new.md": text });
    expect(() => decisionIndex(root)).toThrow("docs/decisions/066-new.md: a record is named NNN-title.md and starts with \"# NNN: Title\"");
  });

  it("writes between the markers and leaves the rest of the README alone", () => {
    const readme = `# Title\n\n## Decisions\n\n${START}\n- [001: Old](docs/decisions/001-old.md)\n${END}\n\n## After\n`;
    expect(withDecisionIndex(readme, "- [001: New](docs/decisions/001-new.md)")).toBe(
      `# Title\n\n## Decisions\n\n${START}\n- [001: New](docs/decisions/001-new.md)\n${END}\n\n## After\n`,
    );
    expect(() => withDecisionIndex("# Title\n", "")).toThrow("README.md has no decision index");
  });
});
