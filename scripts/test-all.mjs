// `npm test`: typecheck, lint, unused code (knip), the API document (spectral) and unit side by
// side, then server integration, build, faults and browser end-to-end in that order (cheapest
// first), stopping at the first failing stage. Ends with one "N passed, N failed" line.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { ensureChromium, ensureTopologyTools } from "./provision.mjs";

const results = ".cache/test-results";
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

function run(title, command, args, env = {}) {
  console.log(`\n=== ${title}: ${command} ${args.join(" ")}`);
  const started = Date.now();
  const res = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
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

function summary() {
  let passed = 0;
  let failed = 0;
  for (const project of ["unit", "server", "faults", "e2e"]) {
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
