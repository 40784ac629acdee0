import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Four suites with different costs: pure unit tests, server integration tests on clones of a
// migrated template database (on the embedded PostgreSQL, or DATABASE_URL's server), fault
// injection against real server processes on throwaway PostgreSQL servers, and browser journeys
// against the built app.
export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias: { "@": here("src/web"), "@shared": here("src/shared") } },
        test: {
          name: "unit",
          include: ["src/shared/**/*.test.ts", "src/web/**/*.test.ts", "src/web/**/*.test.tsx", "scripts/**/*.test.ts"],
          // Component tests choose jsdom per file (`// @vitest-environment jsdom`); the rest is pure.
          environment: "node",
          // An unexpected console.error fails a component test as it fails a server test.
          setupFiles: ["src/web/testing/setup-dom.ts", "test/fail-on-console-error.ts"],
          // Each file gets its own modules and window. Sharing them (`isolate: false`) cut the
          // suite's CPU from 166 to 48 s, but under npm test the name form's lazily loaded form never
          // came in one file order (docs/benchmarks.md, Test suite): kept isolated until that is found.
          // `npm test` runs this suite beside lint and the typechecks (scripts/test-all.mjs): a
          // component test of 2.5 s alone takes twice that there, past vitest's default of 5 s.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: "server",
          include: ["src/server/**/*.test.ts", "test/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/global-setup.ts"],
          setupFiles: ["test/fail-on-console-error.ts"],
          // Every file builds its own app on its own database, so files share nothing at run time
          // and may share loaded modules: about half of the suite's time was importing them again.
          isolate: false,
          // Two files at a time: with one, a quiet two-core machine sat 42% idle through the suite
          // (each file waits on its database half the time; docs/benchmarks.md, Test suite).
          maxWorkers: 2,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Fault injection: each file starts its own throwaway PostgreSQL cluster (it stops and
        // restarts it, and kills server processes), so it runs once, after the server suite. Two
        // files at a time (each on its own cluster and ports): one at a time left a quiet two-core
        // machine 35% idle, waiting on servers, clusters and Chromium to start (docs/benchmarks.md).
        test: {
          name: "faults",
          include: ["test/faults/**/*.faults.ts"],
          environment: "node",
          maxWorkers: 2,
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["e2e/**/*.e2e.ts"],
          // The built app on a clone of a seeded template database, one shared server for the
          // journeys that bring their own people (e2e/harness.ts useSharedServer), and one
          // Chromium for the run.
          globalSetup: ["e2e/global-setup.ts"],
          environment: "node",
          // Two journeys at a time (each on its own server, or with people of its own on the shared
          // one): on the headless shell (decision 084) two took 1,008 and 1,103 s where one took
          // 1,254.5 s, all green (docs/benchmarks.md, Issue 42).
          maxWorkers: 2,
          // A file starts its own contexts (and its own server, or works with people of its own on
          // the shared one), so the worker keeps playwright-core, axe-core and the harness loaded
          // between files instead of importing them again for each (about a tenth of the suite's
          // time).
          isolate: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // A page's state is awaited, never slept on; on a loaded CI machine a route's first
          // render can take seconds, so the wait is long. A test that asserts a speed ("within a
          // second") passes its own timeout.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
