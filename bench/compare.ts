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
// Other options: --rebuild (build a ref again even if .cache/compare/<sha> has it); everything
// else goes to the bench (bench/load.ts and bench/chat.ts say what they take: --rounds, --duration,
// --statements, --cpu-prof, --heap-snapshot, ...).

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "..");
const BENCHES = ["load", "chat"] as const;

function parse(argv: string[]): { base: string; head: string | null; bench: string; rest: string[]; rebuild: boolean; skipHeadBuild: boolean } {
  let base: string | null = null;
  let head: string | null = null;
  let bench: string | null = null;
  let rebuild = false;
  let skipHeadBuild = false;
  const rest: string[] = [];
  for (const arg of argv) {
    if (arg.startsWith("--base=")) base = arg.slice("--base=".length);
    else if (arg.startsWith("--head=")) head = arg.slice("--head=".length);
    else if (arg === "--rebuild") rebuild = true;
    else if (arg === "--skip-head-build") skipHeadBuild = true;
    else if (!arg.startsWith("--") && bench === null) bench = arg;
    else rest.push(arg);
  }
  if (!base || !bench || !(BENCHES as readonly string[]).includes(bench)) {
    throw new Error(`usage: npm run bench:compare -- --base=<git ref> [--head=<git ref>] <${BENCHES.join("|")}> [options of that bench]`);
  }
  return { base, head, bench, rest, rebuild, skipHeadBuild };
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

async function main(): Promise<void> {
  const options = parse(process.argv.slice(2));
  const baseSha = await git("rev-parse", "--verify", `${options.base}^{commit}`);
  const base = { label: `base ${baseSha.slice(0, 7)}`, dir: await buildOf(baseSha, options.rebuild) };
  let head: { label: string; dir: string };
  if (options.head) {
    const headSha = await git("rev-parse", "--verify", `${options.head}^{commit}`);
    head = { label: `head ${headSha.slice(0, 7)}`, dir: await buildOf(headSha, options.rebuild) };
  } else {
    const sha = await git("rev-parse", "--short=7", "HEAD");
    const dirty = (await git("status", "--porcelain", "--untracked-files=no")) !== "";
    head = { label: `head ${sha}${dirty ? " + changes" : ""}`, dir: ROOT };
    if (!options.skipHeadBuild) await step(ROOT, "npm", ["run", "build"]);
  }
  const builds = [base, head].map((b) => `${b.label}:${b.dir}`).join(",");
  const script = join(ROOT, "bench", `${options.bench}.ts`);
  console.log(`\nbench:compare: ${options.bench}, ${base.label} against ${head.label}\n`);
  const child = spawn(process.execPath, ["--import", "tsx", script, `--builds=${builds}`, ...options.rest], { cwd: ROOT, stdio: "inherit" });
  const code = await new Promise<number>((done) => child.on("exit", (c) => done(c ?? 1)));
  process.exitCode = code;
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
