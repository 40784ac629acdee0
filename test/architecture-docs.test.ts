import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// docs/architecture.md is the one page on where things live: its entry for context.ts names every
// member of app.ctx, and its entry for plugins/ every plugin file (issue 42: it had missed
// moneyActions, push and metrics, and the health, metrics, connection-cap and client-errors plugins).

const ROOT = resolve(import.meta.dirname, "..");
const page = readFileSync(join(ROOT, "docs/architecture.md"), "utf8").split("\n");

/** The text of the layout's entry for `name`: its line and the indented lines that continue it. */
function entry(name: string): string {
  const start = page.findIndex((line) => new RegExp(`^\\s*${name.replace(/[.]/g, "\\.")}\\s{2,}\\S`).test(line));
  if (start === -1) throw new Error(`docs/architecture.md has no entry for ${name}`);
  const rest = page.slice(start + 1);
  const end = rest.findIndex((line) => !/^\s{20,}\S/.test(line));
  return [page[start], ...rest.slice(0, end === -1 ? rest.length : end)].join("\n");
}

const named = (text: string, word: string) => new RegExp(`(?<![\\w-])${word}(?![\\w-])`).test(text);

function contextMembers(): string[] {
  const file = join(ROOT, "src/server/context.ts");
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const context = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === "AppContext");
  if (!context) throw new Error("src/server/context.ts has no AppContext interface");
  return context.members.flatMap((member) => (member.name && ts.isIdentifier(member.name) ? [member.name.text] : []));
}

const plugins = readdirSync(join(ROOT, "src/server/plugins"))
  .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
  .map((file) => file.replace(/\.ts$/, ""));

describe("docs/architecture.md", () => {
  it("reads the members of app.ctx and the plugins from the source", () => {
    expect(contextMembers()).toEqual(expect.arrayContaining(["env", "db", "now", "taskActions", "metrics"]));
    expect(plugins).toEqual(expect.arrayContaining(["auth", "spa", "connection-cap"]));
  });

  it("names every member of app.ctx in its entry for context.ts", () => {
    const text = entry("context.ts");
    expect(contextMembers().filter((member) => !named(text, member))).toEqual([]);
  });

  it("names every plugin in its entry for plugins/", () => {
    const text = entry("plugins/");
    expect(plugins.filter((plugin) => !named(text, plugin))).toEqual([]);
  });
});
