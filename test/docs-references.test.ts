import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, posix, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// What the README and docs/ name must exist (issue 42: decision records named files that were gone).
// Every line of README.md and docs/**/*.md is read for:
//
// - repository paths: a word starting with src/, test/, e2e/, bench/, scripts/, docs/, deploy/,
//   drizzle/ or .ci/ names that file or folder exactly, or is the number that starts a numbered
//   file's name (`drizzle/0007`, `docs/decisions/027`); in fenced code too;
// - file names: a word ending in a source file's extension (.ts, .tsx, .mjs, .sql, .md, .json, …;
//   .js only with a folder, so "Node.js" is prose) names a file whose path ends with it, whole
//   segments: a bare `ledger.ts` must exist somewhere in the tree, `plugins/auth.ts` under some
//   folder called plugins; not in fenced code, which shows other programs' files (`prometheus.yml`);
// - package files: such a file name that starts with an installed package's name
//   (`leaflet/dist/leaflet.css`) names a file of that package under node_modules;
// - links: a Markdown link to a relative path resolves from the page that holds it;
// - decision numbers: "decision 043", "decisions 040, 043 and 051", "decisions 037 to 040" each
//   name a record docs/decisions/NNN-*.md (a number never used has a record that says so).
//
// Not looked up, because they are not files of the repository: absolute paths and URLs, words with
// a placeholder (`<page>`, `{id}`, `*`, `…`, `path/to/`), paths under a configured directory
// (`DATA_DIR/vapid.json`), build output (`dist/`, `.vite/`), relative import specifiers
// (`../createLucideIcon.mjs`), and the few files the app writes at run time listed in RUN_TIME_FILES.
//
// A file that is gone on purpose, named in a record of how things were, is struck through:
// ~~`task-events.ts`~~ (Markdown strikethrough). Struck text is not looked up. Keep these few: a
// record that describes how the code works today names today's files.

const ROOT = resolve(import.meta.dirname, "..");
const NOT_SOURCE = new Set(["node_modules", ".git", "dist", ".cache", "coverage"]);
const ROOTED = ["src/", "test/", "e2e/", "bench/", "scripts/", "docs/", "deploy/", "drizzle/", ".ci/"];
const FILE_NAME = /\.(ts|tsx|mts|mjs|cjs|js|json|jsonc|jsonl|md|sql|ini|cfg|sh|yaml|yml|html|css)$/;
/** Names the app writes at run time that the docs explain, each with the source file that writes it. */
const RUN_TIME_FILES = new Map([["manifest.json", "src/server/backup/dump.ts"]]);

function listFiles(dir = ""): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    if (NOT_SOURCE.has(entry.name)) return [];
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    return entry.isDirectory() ? [`${path}/`, ...listFiles(path)] : [path];
  });
}

const files = listFiles();
const paths = new Set(files);
const pages = files.filter((f) => f === "README.md" || (f.startsWith("docs/") && f.endsWith(".md")));
const decisionNumbers = new Set(files.flatMap((f) => /^docs\/decisions\/(\d{3})-[^/]+\.md$/.exec(f)?.[1] ?? []));
const packages = new Set(
  readdirSync(join(ROOT, "node_modules")).flatMap((name) =>
    name.startsWith("@") ? readdirSync(join(ROOT, "node_modules", name)).map((sub) => `${name}/${sub}`) : [name],
  ),
);

/** Every file's path and each tail of it that starts at a folder: `ledger.ts` is found as a name. */
const tails = new Set(files.flatMap((f) => f.split("/").map((_, i, parts) => parts.slice(i).join("/"))));
const exists = (path: string) => paths.has(path) || paths.has(`${path.replace(/\/$/, "")}/`);
/** `drizzle/0007` for drizzle/0007_tasks_approx_position.sql: a numbered file by its number. */
const numbered = (path: string) => /\/\d+$/.test(path) && files.some((f) => f.startsWith(`${path}_`) || f.startsWith(`${path}-`));

/** Why `word` names nothing, or null when it is fine or not a file reference at all. */
function missingFile(word: string, inCode: boolean): string | null {
  if (/[<>{}*…]|\.\.\.|^path\/to\//.test(word)) return null;
  if (/^(\/|~|\.\.?\/)/.test(word) || word.includes("://")) return null;
  if (/^(dist|\.vite|node_modules|\.cache)\//.test(word) || /^[A-Z][A-Z0-9_]*\//.test(word)) return null;
  if (ROOTED.some((root) => word.startsWith(root))) return exists(word) || numbered(word) ? null : `no such path: ${word}`;
  if (inCode || !FILE_NAME.test(word) || /^\.\w+$/.test(word)) return null;
  const pkg = /^(@[\w.-]+\/[\w.-]+|[\w.-]+)\/./.exec(word)?.[1];
  if (pkg && packages.has(pkg)) return existsSync(join(ROOT, "node_modules", word)) ? null : `no such package file: ${word}`;
  if (word.endsWith(".js") && !word.includes("/")) return null;
  if (RUN_TIME_FILES.has(word)) return null;
  return tails.has(word) ? null : `no file named ${word} in the repository`;
}

/** Every reference on `page` (its text `text`) that names nothing, as "page:line: why". */
function problemsIn(page: string, text: string): string[] {
  const problems: string[] = [];
  let inCode = false;
  text
    .split("\n")
    .forEach((raw, index) => {
      const at = `${page}:${index + 1}`;
      if (raw.trimStart().startsWith("```")) inCode = !inCode;
      const line = raw.replace(/~~.+?~~/g, " ");
      for (const [, target = ""] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
        const path = target.replace(/#.*$/, "");
        if (path === "" || /^[a-z]+:/.test(path)) continue;
        if (!exists(posix.normalize(posix.join(posix.dirname(page), path)))) problems.push(`${at}: link to ${target}, which does not exist`);
      }
      const prose = line.replace(/\]\([^)\s]+\)/g, "]").replace(/\b[a-z]+:\/\/\S+/g, " ");
      for (const [found] of prose.matchAll(/[\w@./~][\w@./<>{}*…-]*/g)) {
        const word = found.replace(/[.,:;]+$/, "");
        const problem = missingFile(word, inCode);
        if (problem) problems.push(`${at}: ${problem}`);
      }
      const decisionList = /\b[Dd]ecisions?(?: records?)? (\d{3}(?![\d.]\d)(?:(?:,? and |, | to | or |-|–)\d{3}(?![\d.]\d))*)/g;
      for (const [, list = ""] of prose.matchAll(decisionList)) {
        for (const [n] of list.matchAll(/\d{3}/g)) if (!decisionNumbers.has(n)) problems.push(`${at}: decision ${n} has no record in docs/decisions/`);
      }
    });
  return problems;
}

describe("the README and docs/", () => {
  it("reads every page", () => {
    expect(pages).toContain("README.md");
    expect(pages).toContain("docs/architecture.md");
    expect(pages.filter((p) => p.startsWith("docs/decisions/")).length).toBeGreaterThan(50);
  });

  it("name only paths, files and decisions that exist", () => {
    expect(pages.flatMap((page) => problemsIn(page, readFileSync(join(ROOT, page), "utf8")))).toEqual([]);
  });

  it("have no section left to be written", () => {
    const unwritten = pages.flatMap((page) =>
      readFileSync(join(ROOT, page), "utf8")
        .split("\n")
        .flatMap((line, i) => (/\(To be filled|\bTODO\b|\bTBD\b/.test(line) ? [`${page}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(unwritten).toEqual([]);
  });

  it.each([...RUN_TIME_FILES])("explains %s, which %s writes", (name, writer) => {
    expect(readFileSync(join(ROOT, writer), "utf8")).toContain(name);
  });
});

describe("the reference check", () => {
  const check = (text: string) => problemsIn("docs/decisions/999-example.md", text);

  it.each([
    ["a repository path", "built from the row (src/server/features/tasks/task-transitions.ts).", "no such path: src/server/features/tasks/task-transitions.ts"],
    ["a backticked path", "`test/cross-instance-chat.test.ts` starts two servers", "no such path: test/cross-instance-chat.test.ts"],
    ["a bare file name", "### Journal (`journal.ts`, tables `ledger_entries`)", "no file named journal.ts in the repository"],
    ["a partial path", "`plugins/ledger.ts`", "no file named plugins/ledger.ts in the repository"],
    ["a path in a command", "`npx vitest run e2e/gone.e2e.ts`", "no such path: e2e/gone.e2e.ts"],
    ["a package file", "`leaflet/dist/gone.css`", "no such package file: leaflet/dist/gone.css"],
    ["a numbered file", "after the index (drizzle/0999)", "no such path: drizzle/0999"],
    ["a link", "[the stack](001-gone.md)", "link to 001-gone.md, which does not exist"],
    ["a decision", "(decision 990)", "decision 990 has no record in docs/decisions/"],
    ["a decision in a list", "decisions 040, 043 and 990", "decision 990 has no record in docs/decisions/"],
    ["the end of a range", "decisions 037 to 999", "decision 999 has no record in docs/decisions/"],
  ])("finds %s that names nothing", (_kind, text, problem) => {
    expect(check(text)).toEqual([`docs/decisions/999-example.md:1: ${problem}`]);
  });

  it("finds a repository path in fenced code, and leaves other programs' files there alone", () => {
    expect(check("```yaml\n# prometheus.yml\nrun: node bench/gone.ts\n```")).toEqual(["docs/decisions/999-example.md:3: no such path: bench/gone.ts"]);
  });

  it.each([
    ["files that exist", "`src/server/features/payments/repository.ts`, `ledger-search.ts`, `plugins/auth.ts`, src/web/app/"],
    ["a package file", "`leaflet/dist/leaflet.css`"],
    ["a numbered file by its number", "drizzle/0007, docs/decisions/027"],
    ["package paths that are not files", "`react-dom/static`, 25 q/s"],
    ["a link from the page's folder", "[the stack](001-stack.md), [security](../security.md#sessions)"],
    ["decisions that exist", "decisions 040, 043 and 051; decisions 037 to 040; (decision 034)"],
    ["a number after a decision that is not one", "(decision 042; 101.1 KB before it, 122.6 KB before decision 029, 170.2 KB before)"],
    ["a file struck through as gone", "the event bus (~~`task-events.ts`~~) is gone"],
    ["prose, URLs and placeholders", "Node.js, https://example.com/a.md, `src/web/app/routes/<page>.tsx`, `DATA_DIR/vapid.json`, `dist/server/server/main.js`, `.ts` imports"],
    ["absolute paths", "`/tmp/stage1.sh`, /work/shared/felix/public-cases.jsonl"],
  ])("accepts %s", (_kind, text) => {
    expect(check(text)).toEqual([]);
  });
});
