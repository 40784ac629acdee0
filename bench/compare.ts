import { execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

// Two commits side by side (docs/benchmarks.md, "Side by side (bench:compare)"):
//
//   npm run bench:compare -- --base=<git ref> [--head=<git ref>] <load|chat> [the bench's options]
//   npm run bench:compare -- --base=dfc1fa3 load --rounds=4 --duration=30
//   npm run bench:compare -- --base=main chat --rounds=4 --rate=300
//
// The base (and a head given as a ref) is built in a scratch git worktree, .cache/compare/<sha>/,
// once per commit: its node_modules is a hard-linked copy of this checkout's when both
// package-lock.json files are the same, else `npm ci` there; then that commit's own `npm run build`.
// Without --head the head is this working tree, built with `npm run build` first (--skip-head-build
// when dist/ is already current). Then the bench runs both builds in one process, in turns
// (A B, B A, ...), each on its own copy of one seeded database, and prints the medians of each and
// the ratio head / base per figure (bench/compare-report.ts).
//
// --also=<ref>[,<ref>] measures further commits between the base and the head in the same turns
// (three builds: `--base=dfc1fa3 --also=main`), and the report gives the head's ratio to each.
// --base=worktree (or --head=worktree, the default) is this working tree; with --base-flags="..."
// and --head-flags="..." (Node flags after the start script's) and --base-env="A=1 B=2" and
// --head-env=..., one build can be measured against itself under other settings:
//   npm run bench:compare -- --base=worktree --head-flags="--max-old-space-size=128" load --rounds=4
// Other options: --rebuild (build a ref again even if .cache/compare/<sha> has it); everything
// else goes to the bench (bench/load.ts and bench/chat.ts say what they take: --rounds, --duration,
// --statements, --cpu-prof, --heap-snapshot, ...).

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "..");
const BENCHES = ["load", "chat"] as const;

interface Side {
  ref: string | null;
  flags: string[];
  env: Record<string, string>;
}

interface Options {
  base: Side;
  also: string[];
  head: Side;
  bench: string;
  rest: string[];
  rebuild: boolean;
  skipHeadBuild: boolean;
}

/** "A=1 B=2" as an environment. */
function envOption(value: string): Record<string, string> {
  return Object.fromEntries(
    value
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => {
        const at = pair.indexOf("=");
        if (at <= 0) throw new Error(`"${pair}" is not NAME=VALUE`);
        return [pair.slice(0, at), pair.slice(at + 1)];
      }),
  );
}

function parse(argv: string[]): Options {
  const base: Side = { ref: null, flags: [], env: {} };
  const head: Side = { ref: null, flags: [], env: {} };
  let also: string[] = [];
  let bench: string | null = null;
  let rebuild = false;
  let skipHeadBuild = false;
  const rest: string[] = [];
  for (const arg of argv) {
    const [name, ...value] = arg.split("=");
    const v = value.join("=");
    if (name === "--base") base.ref = v;
    else if (name === "--head") head.ref = v;
    else if (name === "--also") also = v.split(",").filter(Boolean);
    else if (name === "--base-flags") base.flags = v.split(/\s+/).filter(Boolean);
    else if (name === "--head-flags") head.flags = v.split(/\s+/).filter(Boolean);
    else if (name === "--base-env") base.env = envOption(v);
    else if (name === "--head-env") head.env = envOption(v);
    else if (arg === "--rebuild") rebuild = true;
    else if (arg === "--skip-head-build") skipHeadBuild = true;
    else if (!arg.startsWith("--") && bench === null) bench = arg;
    else rest.push(arg);
  }
  if (!base.ref || !bench || !(BENCHES as readonly string[]).includes(bench)) {
    throw new Error(`usage: npm run bench:compare -- --base=<git ref|worktree> [--also=<git ref>,...] [--head=<git ref|worktree>] <${BENCHES.join("|")}> [options of that bench]`);
  }
  return { base, also, head, bench, rest, rebuild, skipHeadBuild };
}

async function git(...args: string[]): Promise<string> {
  return (await run("git", args, { cwd: ROOT, maxBuffer: 256 * 1024 * 1024 })).stdout.trim();
}

/** Runs a command in `cwd`, its output shown, and fails naming it. */
function step(cwd: string, command: string, args: string[]): Promise<void> {
  console.log(`$ (cd ${cwd} && ${command} ${args.join(" ")})`);
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, stdio: "inherit", env: process.env });
    child.on("exit", (code) => (code === 0 ? done() : fail(new Error(`${command} ${args.join(" ")} in ${cwd} exited with ${code}`))));
  });
}

/** The build of one commit in .cache/compare/<sha>/, made once and kept. */
async function buildOf(sha: string, rebuild: boolean): Promise<string> {
  const dir = join(ROOT, ".cache", "compare", sha);
  const marker = join(dir, ".compare-built");
  if (existsSync(marker) && !rebuild) {
    console.log(`${sha.slice(0, 7)}: built already in ${dir}`);
    return dir;
  }
  mkdirSync(join(ROOT, ".cache", "compare"), { recursive: true });
  if (!existsSync(join(dir, ".git"))) {
    // A directory left by an interrupted add is not a worktree git knows: start it again.
    rmSync(dir, { recursive: true, force: true });
    await git("worktree", "prune");
    await step(ROOT, "git", ["worktree", "add", "--detach", dir, sha]);
  }
  if (!existsSync(join(dir, "node_modules"))) {
    const lock = await git("show", `${sha}:package-lock.json`).catch(() => "");
    if (lock !== "" && lock === readFileSync(join(ROOT, "package-lock.json"), "utf8").trim()) {
      // The same packages: hard links cost no disk and no download. Caches a build writes into are left out.
      await step(ROOT, "cp", ["-al", join(ROOT, "node_modules"), join(dir, "node_modules")]);
      for (const cache of [".vite", ".cache", ".vitest"]) rmSync(join(dir, "node_modules", cache), { recursive: true, force: true });
    } else {
      console.log(`${sha.slice(0, 7)}: its package-lock.json differs from this checkout's: npm ci`);
      await step(dir, "npm", ["ci", "--no-audit", "--no-fund"]);
    }
  }
  // That commit's own build script (it has changed over time: prerendering, the SSR bundle).
  await step(dir, "npm", ["run", "build"]);
  writeFileSync(marker, `${sha}\n${new Date().toISOString()}\n`);
  return dir;
}

/** A side's build: a ref's in .cache/compare/<sha>/, or this working tree's (built once per run). */
async function sideBuild(name: "base" | "also" | "head", side: Side, options: Options, workingTreeBuilt: { done: boolean }): Promise<{ label: string; dir: string }> {
  const extra = [...side.flags, ...Object.entries(side.env).map(([k, v]) => `${k}=${v}`)].join(" ");
  const suffix = extra ? ` (${extra})` : "";
  if (side.ref && side.ref !== "worktree") {
    const sha = await git("rev-parse", "--verify", `${side.ref}^{commit}`);
    return { label: `${name} ${sha.slice(0, 7)}${suffix}`, dir: await buildOf(sha, options.rebuild) };
  }
  const sha = await git("rev-parse", "--short=7", "HEAD");
  const dirty = (await git("status", "--porcelain", "--untracked-files=no")) !== "";
  if (!options.skipHeadBuild && !workingTreeBuilt.done) await step(ROOT, "npm", ["run", "build"]);
  workingTreeBuilt.done = true;
  return { label: `${name} ${sha}${dirty ? " + changes" : ""}${suffix}`, dir: ROOT };
}

async function main(): Promise<void> {
  const options = parse(process.argv.slice(2));
  const workingTreeBuilt = { done: false };
  const base = await sideBuild("base", options.base, options, workingTreeBuilt);
  const also = [];
  for (const ref of options.also) also.push(await sideBuild("also", { ref, flags: [], env: {} }, options, workingTreeBuilt));
  const head = await sideBuild("head", options.head, options, workingTreeBuilt);
  const builds = JSON.stringify([
    { label: base.label, root: base.dir, nodeFlags: options.base.flags, env: options.base.env },
    ...also.map((b) => ({ label: b.label, root: b.dir, nodeFlags: [], env: {} })),
    { label: head.label, root: head.dir, nodeFlags: options.head.flags, env: options.head.env },
  ]);
  const script = join(ROOT, "bench", `${options.bench}.ts`);
  console.log(`\nbench:compare: ${options.bench}, ${[base, ...also].map((b) => b.label).join(", ")} against ${head.label}\n`);
  const child = spawn(process.execPath, ["--import", "tsx", script, `--builds=${builds}`, ...options.rest], { cwd: ROOT, stdio: "inherit" });
  const code = await new Promise<number>((done) => child.on("exit", (c) => done(c ?? 1)));
  process.exitCode = code;
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
