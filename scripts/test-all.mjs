// `npm test`: typecheck, lint, unused code (knip), the API document (spectral) and unit side by
// side, then server integration, build, faults and browser end-to-end in that order (cheapest
// first), stopping at the first failing stage. Writes every stage's and every file's time to
// .cache/test-results/times.json and prints the slowest files. Ends with one "N passed, N failed" line.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { relative } from "node:path";
import { ensureChromium, ensureTopologyTools } from "./provision.mjs";

const results = ".cache/test-results";
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });
const runStarted = Date.now();
/** Each stage's wall time and the load average as it ended, for times.json (docs/benchmarks.md, Test suite). */
const stages = [];

function recordStage(title, started, status) {
  stages.push({ stage: title, seconds: Number(((Date.now() - started) / 1000).toFixed(1)), ok: status === 0, loadAverage: Number(loadavg()[0].toFixed(2)) });
}

function run(title, command, args, env = {}) {
  console.log(`\n=== ${title}: ${command} ${args.join(" ")}`);
  const started = Date.now();
  const res = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  recordStage(title, started, res.status);
  console.log(`=== ${title}: ${res.status === 0 ? "ok" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (res.status !== 0) {
    summary();
    process.exit(res.status ?? 1);
  }
}

/**
 * Runs the checks at once and prints each one's output whole when it ends. Each is one process
 * that mostly keeps one core busy, so on two cores the group takes about as long as its longest
 * check (lint) instead of the sum (docs/benchmarks.md, Test suite).
 */
async function together(checks) {
  const started = Date.now();
  console.log(`\n=== ${checks.map((c) => c.title).join(", ")}: side by side`);
  const outcomes = await Promise.all(
    checks.map(
      ({ title, command, args }) =>
        new Promise((resolve) => {
          const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
          const output = [];
          child.stdout.on("data", (d) => output.push(d));
          child.stderr.on("data", (d) => output.push(d));
          child.on("close", (status) => {
            recordStage(title, started, status);
            console.log(`\n=== ${title}: ${command} ${args.join(" ")}`);
            process.stdout.write(Buffer.concat(output));
            console.log(`=== ${title}: ${status === 0 ? "ok" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
            resolve(status);
          });
        }),
    ),
  );
  const failed = outcomes.find((status) => status !== 0);
  if (failed !== undefined) {
    summary();
    process.exit(failed ?? 1);
  }
}

const vitest = (project) => [
  "vitest",
  "run",
  "--project",
  project,
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${results}/${project}.json`,
];

/** Per-file wall times of one suite from vitest's JSON report, slowest first. */
function fileTimes(project) {
  try {
    const json = JSON.parse(readFileSync(`${results}/${project}.json`, "utf8"));
    return json.testResults
      .map((file) => ({ file: relative(process.cwd(), file.name), seconds: Number(((file.endTime - file.startTime) / 1000).toFixed(1)), tests: file.assertionResults.length, status: file.status }))
      .sort((a, b) => b.seconds - a.seconds);
  } catch {
    return null; // that suite did not run
  }
}

/**
 * Writes times.json (every stage, every file of each suite) and prints the stages and the ten
 * slowest files of each suite, so the next person sees where the time goes.
 */
function timings() {
  const files = {};
  for (const project of SUITES) {
    const times = fileTimes(project);
    if (times) files[project] = times;
  }
  const total = Number(((Date.now() - runStarted) / 1000).toFixed(1));
  writeFileSync(`${results}/times.json`, `${JSON.stringify({ date: new Date().toISOString(), totalSeconds: total, stages, files }, null, 2)}\n`);
  console.log(`\n=== times (${results}/times.json): ${total} s in all`);
  for (const { stage, seconds, loadAverage } of stages) console.log(`  ${stage.padEnd(28)} ${String(seconds).padStart(7)} s   load ${loadAverage}`);
  for (const [project, times] of Object.entries(files)) {
    console.log(`  slowest ${project} files:`);
    for (const { file, seconds, tests } of times.slice(0, 10)) console.log(`    ${String(seconds).padStart(7)} s  ${file} (${tests} tests)`);
  }
}

const SUITES = ["unit", "server", "faults", "e2e"];

function summary() {
  timings();
  let passed = 0;
  let failed = 0;
  for (const project of SUITES) {
    try {
      const json = JSON.parse(readFileSync(`${results}/${project}.json`, "utf8"));
      passed += json.numPassedTests;
      failed += json.numFailedTests;
    } catch {
      // that suite did not run
    }
  }
  console.log(`\n${passed} passed, ${failed} failed`);
}

await together([
  { title: "lint", command: "npx", args: ["eslint", ".", "--max-warnings", "0"] },
  { title: "typecheck", command: "npx", args: ["tsc", "-p", "tsconfig.node.json"] },
  { title: "typecheck web", command: "npx", args: ["tsc", "-p", "tsconfig.web.json"] },
  // Unused files, exports and dependencies, and an API document every client can read
  // (docs/decisions/047-knip-and-spectral-in-the-test-command.md).
  { title: "unused code", command: "npm", args: ["run", "lint:unused"] },
  { title: "api document", command: "npm", args: ["run", "lint:api"] },
  { title: "unit", command: "npx", args: vitest("unit") },
]);
run("server", "npx", vitest("server"));
run("build", "npm", ["run", "build"]);
ensureTopologyTools();
// The topology faults drive a page in Chromium too (a socket catching up after its instance died).
ensureChromium();
run("faults", "npx", vitest("faults"));
run("e2e", "npx", vitest("e2e"));
summary();
