// `npm run docs:decisions`: writes the README's list of decision records, one line per file in
// docs/decisions/ from the title line it starts with ("# 043: Slow requests bounded…"), between
// the two markers below. The list is never edited by hand: scripts/decision-index.test.ts fails
// when the README's list is not what this would write (issue 42: it had skipped eight records).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

export const START = "<!-- decision index: written by `npm run docs:decisions` -->";
export const END = "<!-- end of the decision index -->";

/** One Markdown line per record, in number order: `- [043: Title](docs/decisions/043-….md)`. */
export function decisionIndex(root: string): string {
  const dir = join(root, "docs", "decisions");
  const records = readdirSync(dir)
    .filter((name) => name.endsWith(".md"))
    .sort();
  return records
    .map((name) => {
      const title = readFileSync(join(dir, name), "utf8").split("\n", 1)[0] ?? "";
      const heading = /^# (\d{3}): (.+)$/.exec(title);
      if (!/^\d{3}-[a-z0-9-]+\.md$/.test(name) || !heading || heading[1] !== name.slice(0, 3)) {
        throw new Error(`docs/decisions/${name}: a record is named NNN-title.md and starts with "# NNN: Title", found "${title}"`);
      }
      return `- [${heading[1]}: ${heading[2]}](docs/decisions/${name})`;
    })
    .join("\n");
}

/** `readme` with the text between the markers replaced by the index. */
export function withDecisionIndex(readme: string, index: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start === -1 || end < start) throw new Error(`README.md has no decision index between "${START}" and "${END}"`);
  return `${readme.slice(0, start + START.length)}\n${index}\n${readme.slice(end)}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const root = resolve(import.meta.dirname, "..");
  const readmePath = join(root, "README.md");
  const readme = readFileSync(readmePath, "utf8");
  const written = withDecisionIndex(readme, decisionIndex(root));
  if (written !== readme) writeFileSync(readmePath, written);
  console.log(written === readme ? "README.md: the decision index was up to date" : "README.md: decision index written");
}
