import { ESLint, type Linter } from "eslint";
import tseslint from "typescript-eslint";
import { beforeAll, describe, expect, it } from "vitest";

// The import boundaries of docs/architecture.md are lint rules (eslint.config.js). Each rule is
// shown to fail here on a planted violation at a realistic path, so a config change that quietly
// turns one off fails this test instead of letting the boundary erode again. The snippets are linted
// in memory (lintText), never written to disk; the files they import are the real ones.

// The repository root without a trailing slash: the import resolver matches file paths against
// the tsconfig programs, and "//src/web/…" matches none.
const root = decodeURIComponent(new URL("../..", import.meta.url).pathname).replace(/\/$/, "");
const fromRoot = (path: string) => `${root}/${path}`;

let eslint: ESLint;

beforeAll(async () => {
  eslint = new ESLint({
    cwd: root,
    overrideConfigFile: fromRoot("eslint.config.js"),
    // The boundary rules need no type information; skipping the type-aware parse keeps this fast
    // and lets a planted path that exists in no tsconfig program be linted at all.
    overrideConfig: [tseslint.configs.disableTypeChecked],
  });
  // The first lint loads the config's plugins and the import resolver, and import-x/no-cycle reads
  // the whole server graph behind app.ts once: most of this file's time. Paid here, under the
  // hook's own limit, it no longer counts against the first case's (on a loaded machine that case
  // alone passed 60 s: docs/benchmarks.md, Test suite).
  await eslint.lintText(`import "./app.js";\n`, { filePath: fromRoot("src/server/warm-up.ts") });
}, 180_000);

async function lint(filePath: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: fromRoot(filePath) });
  if (!result) throw new Error(`no lint result for ${filePath}`);
  const fatal = result.messages.filter((m) => m.fatal);
  expect(fatal, `parse errors in the snippet for ${filePath}`).toEqual([]);
  return result.messages;
}

const ruleIds = (messages: Linter.LintMessage[]) => messages.map((m) => m.ruleId);

describe("lint boundaries", { timeout: 60_000 }, () => {
  it.each([
    {
      what: "shared importing the server",
      file: "src/shared/planted.ts",
      code: `import "../server/app.js";\n`,
      rule: "import-x/no-restricted-paths",
    },
    {
      what: "shared importing the web",
      file: "src/shared/planted.ts",
      code: `import "../web/lib/cn";\n`,
      rule: "import-x/no-restricted-paths",
    },
    {
      what: "shared importing react",
      file: "src/shared/planted.ts",
      code: `import "react";\n`,
      rule: "no-restricted-imports",
    },
    {
      what: "shared importing drizzle",
      file: "src/shared/planted.ts",
      code: `import "drizzle-orm/pg-core";\n`,
      rule: "no-restricted-imports",
    },
    {
      what: "the web importing the server",
      file: "src/web/lib/planted.ts",
      code: `import "../../server/app";\n`,
      rule: "import-x/no-restricted-paths",
    },
    {
      what: "the server importing the web",
      file: "src/server/planted.ts",
      code: `import "../web/lib/cn.js";\n`,
      rule: "import-x/no-restricted-paths",
    },
    {
      what: "a web feature importing another feature",
      file: "src/web/features/chat/components/planted.tsx",
      code: `import "@/features/tasks/api/get-task";\n`,
      rule: "import-x/no-restricted-paths",
    },
    {
      what: "a web feature importing another feature by a relative path",
      file: "src/web/features/payments/components/planted.tsx",
      code: `import "../../tasks/components/task-format";\n`,
      rule: "import-x/no-restricted-paths",
    },
    {
      what: "a server feature importing another feature",
      file: "src/server/features/reviews/planted.ts",
      code: `import "../tasks/repository.js";\n`,
      rule: "import-x/no-restricted-paths",
    },
    {
      what: "a web feature importing app",
      file: "src/web/features/tasks/components/planted.tsx",
      code: `import "@/app/post-task-dialog";\n`,
      rule: "import-x/no-restricted-paths",
    },
    {
      what: "lib importing a feature",
      file: "src/web/lib/planted.ts",
      code: `import "@/features/tasks/api/get-task";\n`,
      rule: "import-x/no-restricted-paths",
    },
    {
      what: "the design system importing app",
      file: "src/web/components/ui/planted.tsx",
      code: `import "@/app/protected-route";\n`,
      rule: "import-x/no-restricted-paths",
    },
    {
      // task-format.ts is imported by job-card.tsx; planting an import back closes the loop.
      what: "an import cycle",
      file: "src/web/features/tasks/components/task-format.ts",
      code: `import "./job-card";\n`,
      rule: "import-x/no-cycle",
    },
    {
      what: "a package that is installed but not declared in package.json",
      file: "src/web/lib/planted.ts",
      code: `import "minimatch";\n`,
      rule: "import-x/no-extraneous-dependencies",
    },
    {
      what: "server code importing a devDependency",
      file: "src/server/planted.ts",
      code: `import "date-fns";\n`,
      rule: "import-x/no-extraneous-dependencies",
    },
    {
      what: "a package's private file through require()",
      file: "src/server/adapters/geocoding/planted.ts",
      code: `import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\nexport const codes: unknown = require("zipcodes/lib/codes.js");\n`,
      rule: "import-x/no-internal-modules",
    },
    {
      what: "a package's private file through import",
      file: "src/server/adapters/geocoding/planted.ts",
      code: `import "zipcodes/lib/codes.js";\n`,
      rule: "import-x/no-internal-modules",
    },
    {
      what: "a Node built-in in browser code",
      file: "src/web/lib/planted.ts",
      code: `import "node:fs";\n`,
      rule: "import-x/no-nodejs-modules",
    },
    // Admin powers are decided in src/server/policy.ts alone (docs/decisions/068-admin-powers-need-two-factors.md).
    {
      what: "a role compared in server code",
      file: "src/server/features/chat/planted.ts",
      code: `export const admin = (user: { role: string }) => user.role === "admin";\n`,
      rule: "no-restricted-syntax",
    },
    {
      what: "a role compared through an optional chain, even where the role is the data (the seed)",
      file: "src/server/seed/planted.ts",
      code: `export const admin = (user: { role: string } | null) => "admin" !== user?.role;\n`,
      rule: "no-restricted-syntax",
    },
    {
      what: "a session's role passed on instead of the policy's answer",
      file: "src/server/features/tasks/planted.ts",
      code: `export const viewer = (user: { id: string; role: string }) => ({ id: user.id, role: user.role });\n`,
      rule: "no-restricted-syntax",
    },
    {
      what: "a role read by its name in brackets",
      file: "src/server/features/reviews/planted.ts",
      code: `export const role = (user: Record<string, string>) => user["role"];\n`,
      rule: "no-restricted-syntax",
    },
    {
      what: "a role destructured",
      file: "src/server/features/questions/planted.ts",
      code: `export const role = ({ role }: { role: string }) => role;\n`,
      rule: "no-restricted-syntax",
    },
    {
      what: "the role column compared through drizzle",
      file: "src/server/features/moderation/planted.ts",
      code: `import { eq } from "drizzle-orm";\nimport { users } from "../../db/schema/users.js";\nexport const admins = eq(users.role, "admin");\n`,
      rule: "no-restricted-syntax",
    },
    {
      what: "the role compared in SQL text",
      file: "src/server/features/tasks/planted.ts",
      code: "import { sql } from \"drizzle-orm\";\nexport const admin = sql`exists (select 1 from users u where u.id = $1 and u.role = 'admin')`;\n",
      rule: "no-restricted-syntax",
    },
    {
      what: "the role column compared in SQL",
      file: "src/server/features/providers/planted.ts",
      code: "import { sql } from \"drizzle-orm\";\nimport { users } from \"../../db/schema/users.js\";\nexport const notAdmin = sql`${users.role} <> 'admin'`;\n",
      rule: "no-restricted-syntax",
    },
    {
      what: "a role compared where the role is the data (the admin command line)",
      file: "src/server/cli/planted.ts",
      code: `export const admin = (user: { role: string }) => user.role === "admin";\n`,
      rule: "no-restricted-syntax",
    },
  ])("fails on $what", async ({ file, code, rule }) => {
    expect(ruleIds(await lint(file, code))).toContain(rule);
  });

  it("passes the role where it is allowed: the policy, the places that set or show it, the column in a statement, and tests", async () => {
    const allowed = [
      { file: "src/server/policy.ts", code: `export const isAdmin = (user: { role: string }) => user.role === "admin";\n` },
      { file: "src/server/features/auth/repository.ts", code: `export const view = (user: { role: string }) => ({ role: user.role });\n` },
      { file: "src/server/cli/planted.ts", code: `export const said = (role: string) => (role === "admin" ? "an admin" : "a user");\n` },
      {
        file: "src/server/features/account/planted.ts",
        code: `import { users } from "../../db/schema/users.js";\nexport const columns = { role: users.role };\n`,
      },
      { file: "src/server/features/chat/planted.test.ts", code: `export const admin = (user: { role: string }) => user.role === "admin";\n` },
    ];
    for (const { file, code } of allowed) expect(ruleIds(await lint(file, code)), file).not.toContain("no-restricted-syntax");
  });

  it("passes a feature that imports its own files, lib, the design system, shared and a package's public entry", async () => {
    const messages = await lint(
      "src/web/features/tasks/components/planted.tsx",
      [
        `export { zodResolver } from "@hookform/resolvers/zod";`,
        `export { TASK_TRANSITIONS } from "@shared/task-lifecycle";`,
        `export { Button } from "@/components/ui/button";`,
        `export { useUser } from "@/lib/current-user";`,
        `export { useTask } from "../api/get-task";`,
        `export { relativeTime } from "./task-format";`,
        "",
      ].join("\n"),
    );
    expect(messages).toEqual([]);
  });

  it("passes a page in app that composes two features", async () => {
    const messages = await lint(
      "src/web/app/routes/planted.tsx",
      [`export { TaskChatPanel } from "@/features/chat/components/task-chat-panel";`, `export { useTask } from "@/features/tasks/api/get-task";`, ""].join(
        "\n",
      ),
    );
    expect(messages).toEqual([]);
  });

  it("passes server code that imports shared, its own files and declared dependencies", async () => {
    const messages = await lint(
      "src/server/features/tasks/planted.ts",
      [
        `export { sql } from "drizzle-orm";`,
        `export { pgTable } from "drizzle-orm/pg-core";`,
        `export { evaluateTransition } from "../../../shared/task-lifecycle.js";`,
        `export type { AppContext } from "../../context.js";`,
        "",
      ].join("\n"),
    );
    expect(messages).toEqual([]);
  });
});
