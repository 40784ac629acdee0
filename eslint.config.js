import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const root = import.meta.dirname;
const readJson = (path) => JSON.parse(readFileSync(path, "utf8"));

// The boundaries of docs/architecture.md as lint rules: a boundary that is only written in a doc
// is broken within weeks (nine cross-feature imports appeared before these rules existed).
const ARCHITECTURE = "docs/architecture.md";

/** Every web feature gets a zone that forbids the other features; a new feature is covered by existing. */
const featuresIn = (dir) =>
  readdirSync(join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
const webFeatures = featuresIn("src/web/features");
const serverFeatures = featuresIn("src/server/features");

const boundaryZones = [
  {
    target: "./src/shared",
    from: ["./src/server", "./src/web"],
    message: `src/shared is pure and imports nothing of the server or the web (${ARCHITECTURE}).`,
  },
  { target: "./src/web", from: "./src/server", message: `The web never imports the server; share through src/shared (${ARCHITECTURE}).` },
  { target: "./src/server", from: "./src/web", message: `The server never imports the web; share through src/shared (${ARCHITECTURE}).` },
  {
    target: ["./src/web/components", "./src/web/lib"],
    from: ["./src/web/features", "./src/web/app"],
    message: `components/ui and lib are the bottom layer: they never import features or app (${ARCHITECTURE}).`,
  },
  {
    target: "./src/web/features",
    from: "./src/web/app",
    message: `Features are composed by src/web/app, never the other way round (${ARCHITECTURE}).`,
  },
  ...webFeatures.map((feature) => ({
    target: `./src/web/features/${feature}`,
    from: "./src/web/features",
    except: [`./${feature}`],
    message: `A feature never imports another feature: compose them in src/web/app, or move what both need to src/web/lib (${ARCHITECTURE}).`,
  })),
  ...serverFeatures.map((feature) => ({
    target: `./src/server/features/${feature}/!(*.test).ts`,
    from: "./src/server/features",
    except: [`./${feature}`],
    message: `Server features meet through ctx.taskEvents, Fastify decorators and shared tables, never each other's modules (${ARCHITECTURE}).`,
  })),
];

/**
 * The entry points each installed package declares public in its package.json `exports`
 * ("drizzle-orm/pg-core", "@hookform/resolvers/zod"). Anything else below a package name
 * ("zipcodes/lib/codes.js") is a private file that may move or vanish in any release, so
 * import-x/no-internal-modules refuses it. A package without an `exports` map has only its name.
 */
function publicPackageSubpaths() {
  const manifest = readJson(join(root, "package.json"));
  const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies, ...manifest.optionalDependencies });
  const allowed = [];
  for (const name of names) {
    let exportsMap;
    try {
      exportsMap = readJson(join(root, "node_modules", name, "package.json")).exports;
    } catch {
      continue; // An optional dependency for another platform is not installed.
    }
    if (!exportsMap || typeof exportsMap !== "object" || Array.isArray(exportsMap)) continue;
    for (const key of Object.keys(exportsMap)) {
      if (key.startsWith("./") && key !== "./package.json") allowed.push(`${name}/${key.slice(2).replaceAll("*", "**")}`);
    }
  }
  return allowed;
}

const internalModulesAllow = [
  // Our own files: the web's path aliases and anything that resolves inside the repository.
  "@/**",
  "@shared/**",
  `${root}/*`,
  `${root}/!(node_modules)/**`,
  ...publicPackageSubpaths(),
  // Leaflet (no exports map) documents its style sheet at this path as part of its public API.
  "leaflet/dist/leaflet.css",
];

/**
 * Admin powers follow from the admin role AND a two-factor session, decided in one place:
 * src/server/policy.ts (docs/decisions/068-admin-powers-need-two-factors.md). Elsewhere in the server
 * a role is never compared (in code, in drizzle's eq/ne, or in SQL text) and a session's or a row's
 * `.role` is not read: code passes the policy's answer (`Viewer.admin`, `isAdminSession`).
 * `users.role`, the column, stays usable for statements that set or export a role.
 */
const POLICY_MESSAGE = "Decide what a session may do in src/server/policy.ts (isAdminSession, viewerOf, hasAdminRole, adminAccountSql), not by its role (decision 068).";
const roleComparisons = [
  ...["left", "right"].flatMap((side) =>
    [`[${side}.property.name="role"]`, `[${side}.expression.property.name="role"]`].map((operand) => ({
      selector: `BinaryExpression[operator=/^[!=]==?$/]${operand}`,
      message: POLICY_MESSAGE,
    })),
  ),
  { selector: 'CallExpression[callee.name=/^(eq|ne|inArray|notInArray)$/][arguments.0.property.name="role"]', message: POLICY_MESSAGE },
  // SQL text: `u.role = 'admin'`, or `${users.role} <> 'admin'` (the role column, then the text after it).
  { selector: "TemplateElement[value.raw=/role\\s*(=|<>|!=)\\s*'admin'|^\\s*(=|<>|!=)\\s*'admin'/]", message: POLICY_MESSAGE },
];
const roleReads = [
  { selector: 'MemberExpression[property.name="role"]:not([object.name="users"])', message: POLICY_MESSAGE },
  { selector: 'MemberExpression[computed=true][property.value="role"]', message: POLICY_MESSAGE },
  { selector: 'ObjectPattern > Property[key.name="role"]', message: POLICY_MESSAGE },
];
const SERVER_CODE = ["src/server/**/*.ts"];
const SERVER_TESTS = ["src/server/**/*.test.ts"];
const POLICY_FILE = "src/server/policy.ts";
/**
 * Where a role is the data itself, so it is read (never compared): the API's user answer
 * (auth/repository.ts toUserView sends `role`), the admin command line that grants and revokes it,
 * and the demo seed that writes it.
 */
const ROLE_IS_DATA = ["src/server/features/auth/repository.ts", "src/server/cli/**/*.ts", "src/server/seed/**/*.ts"];

/** Tests, e2e journeys, benches, scripts and tool configs may use devDependencies; the server's code may not. */
const devOnlyFiles = [
  "**/*.test.ts",
  "**/*.test.tsx",
  "test/**",
  "e2e/**",
  "bench/**",
  "scripts/**",
  "*.config.ts",
  "*.config.js",
  // The web is bundled at build time: its packages are build-time inputs, kept in devDependencies.
  "src/web/**",
].map((glob) => `${root}/${glob}`);

export default tseslint.config(
  { ignores: ["dist/**", "data/**", "drizzle/**", "node_modules/**", ".cache/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: root },
    },
    rules: {
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-non-null-assertion": "error",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      eqeqeq: ["error", "smart"],
    },
  },
  {
    files: ["**/*.ts", "**/*.tsx", "**/*.js", "**/*.mjs"],
    plugins: { "import-x": importX },
    settings: {
      // Parse TypeScript modules too when following imports (no-cycle reads every file it reaches).
      "import-x/extensions": importX.flatConfigs.typescript.settings["import-x/extensions"],
      "import-x/external-module-folders": importX.flatConfigs.typescript.settings["import-x/external-module-folders"],
      "import-x/parsers": importX.flatConfigs.typescript.settings["import-x/parsers"],
      "import-x/resolver-next": [
        createTypeScriptImportResolver({
          project: [join(root, "tsconfig.web.json"), join(root, "tsconfig.node.json")],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      "import-x/no-restricted-paths": ["error", { basePath: root, zones: boundaryZones }],
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-internal-modules": ["error", { allow: internalModulesAllow }],
      "import-x/no-extraneous-dependencies": [
        "error",
        { packageDir: root, devDependencies: devOnlyFiles, optionalDependencies: false, peerDependencies: false },
      ],
    },
  },
  {
    files: ["src/web/**/*.tsx", "src/web/**/*.ts"],
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Both run in the browser: no Node built-ins outside tests and their helpers (src/web/testing).
    files: ["src/shared/**/*.ts", "src/web/**/*.ts", "src/web/**/*.tsx"],
    ignores: ["**/*.test.ts", "**/*.test.tsx", "src/web/testing/**"],
    rules: { "import-x/no-nodejs-modules": "error" },
  },
  {
    files: ["src/shared/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "react",
                "react-*",
                "@radix-ui/*",
                "@tanstack/*",
                "wouter",
                "fastify",
                "fastify-*",
                "@fastify/*",
                "drizzle-orm",
                "drizzle-kit",
                "pg",
                "ws",
              ],
              message: `src/shared is read by the server and the browser: no UI, server or database package (${ARCHITECTURE}).`,
            },
          ],
        },
      ],
    },
  },
  {
    files: SERVER_CODE,
    ignores: [...SERVER_TESTS, POLICY_FILE, ...ROLE_IS_DATA],
    rules: { "no-restricted-syntax": ["error", ...roleComparisons, ...roleReads] },
  },
  {
    files: ROLE_IS_DATA,
    rules: { "no-restricted-syntax": ["error", ...roleComparisons] },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
  },
);
