import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// docs/deploy.md shows the configuration files that test/faults/topology.faults.ts runs, verbatim,
// so the page an operator copies from cannot drift from what is tested.

const ROOT = resolve(import.meta.dirname, "..");
const page = readFileSync(join(ROOT, "docs/deploy.md"), "utf8");

describe("docs/deploy.md", () => {
  it.each([
    ["deploy/haproxy.cfg", "haproxy"],
    ["deploy/pgbouncer.ini", "ini"],
  ])("shows %s as it is", (file, language) => {
    const text = readFileSync(join(ROOT, file), "utf8");
    expect(page).toContain("```" + language + "\n" + text + "```");
  });
});
