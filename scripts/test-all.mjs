// `npm test`: typecheck, lint, unused code (knip), the API document (spectral), unit, server
// integration, build, faults, browser end-to-end, in that order (cheapest first), stopping at the
// first failure. Ends with one "N passed, N failed" line.
import { spawnSync } from "node:child_process";
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

run("typecheck", "npx", ["tsc", "-p", "tsconfig.node.json"]);
run("typecheck web", "npx", ["tsc", "-p", "tsconfig.web.json"]);
run("lint", "npx", ["eslint", ".", "--max-warnings", "0"]);
// Unused files, exports and dependencies, and an API document every client can read
// (docs/decisions/047-knip-and-spectral-in-the-test-command.md).
run("unused code", "npm", ["run", "lint:unused"]);
run("api document", "npm", ["run", "lint:api"]);
run("unit", "npx", vitest("unit"));
run("server", "npx", vitest("server"));
run("build", "npm", ["run", "build"]);
ensureTopologyTools();
// The topology faults drive a page in Chromium too (a socket catching up after its instance died).
ensureChromium();
run("faults", "npx", vitest("faults"));
run("e2e", "npx", vitest("e2e"));
summary();
