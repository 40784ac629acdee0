import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Three suites with different costs: pure unit tests, server integration tests on a copied
// migrated PGlite image (or a PostgreSQL template database when DATABASE_URL is set), and
// browser journeys against the built app.
export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias: { "@": here("src/web"), "@shared": here("src/shared") } },
        test: {
          name: "unit",
          include: ["src/shared/**/*.test.ts", "src/web/**/*.test.ts", "src/web/**/*.test.tsx"],
          environment: "node",
        },
      },
      {
        test: {
          name: "server",
          include: ["src/server/**/*.test.ts", "test/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/global-setup.ts"],
          setupFiles: ["test/fail-on-console-error.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["e2e/**/*.e2e.ts"],
          environment: "node",
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
