import { freePort } from "../../src/server/free-port.js";
import { warnIfStale } from "../../bench/app-server.js";
import { adminTwoFactorsCheck } from "./checks/admin-two-factors.js";
import { backupsCheck } from "./checks/backups.js";
import { codeGuessingCheck } from "./checks/code-guessing.js";
import { csvCheck } from "./checks/csv.js";
import { demoDataCheck, productionOnDemoData, startProductionDefault } from "./checks/demo-data.js";
import { maskingCheck } from "./checks/masking.js";
import { offerPriceCheck } from "./checks/offer-price.js";
import { duplicatePasskeyCheck, passkeyVerificationCheck } from "./checks/passkeys.js";
import { plantedFactorsCheck } from "./checks/planted-factors.js";
import { securityLogCheck } from "./checks/security-log.js";
import { judgeSlowConnections, startSlowConnections } from "./checks/slow-connections.js";
import { Check, run } from "./report.js";
import { builtEntryExists, launch, ROOT } from "./server.js";
import { judgeSweep, sweep } from "./sweep.js";
import { buildCast, World } from "./world.js";

// Issue 40 tried again from outside (docs/security.md, "Probe of 2026-12-07"): each numbered item
// played as its attack against the built server over HTTP and WebSocket, then every documented
// operation swept as five callers. `npm run security:probe` builds first; after a build,
// `npx tsx scripts/security-probe/probe.ts` runs it alone. Exits 1 when anything failed.
//
// The server is started by the probe: the built entry (dist/), development mode on loopback with
// the demo data (its logins are how an attacker would try it), a throwaway DATA_DIR and its
// embedded PostgreSQL, default limits and timeouts. A second start, in production mode as the
// issue started it, runs beside it; the backup check runs `npm run backup` against it. Mail is
// read where an operator reads it on such a run: the development log's links.

const started = performance.now();
if (!builtEntryExists()) {
  console.error("dist/server/server/main.js is missing: run `npm run build` first (npm run security:probe does).");
  process.exit(2);
}
warnIfStale(`${ROOT}/dist/server/server/main.js`);

const port = await freePort();
const suffix = Math.random().toString(16).slice(2, 8);
const admin1Email = `admin1-${suffix}@probe.test`;
const bossEmail = `boss-${suffix}@probe.test`;
const chiefEmail = `chief-${suffix}@probe.test`;
const productionStart = startProductionDefault();
const main = await launch(
  { NODE_ENV: "development", HOST: "127.0.0.1", PUBLIC_URL: `http://localhost:${port}`, LOG_LEVEL: "info", ADMIN_EMAILS: [admin1Email, bossEmail, chiefEmail].join(",") },
  { port },
);
if (main.exited()) {
  console.error(`the server did not start:\n${main.output().slice(-3000)}`);
  process.exit(2);
}
console.log(`Probe of issue 40 against ${main.url} (built server, NODE_ENV=development, DATA_DIR ${main.dataDir})`);

const checks: Check[] = [];
const world = new World(main);
const cast = await buildCast(world, admin1Email);
console.log(`cast ready in ${((performance.now() - started) / 1000).toFixed(0)} s: two-factor admin, one-factor admin, stranger, provider, victim (${cast.canaries.length} canaries)`);

// Item 8 runs beside the others: its connections wait out the server's 60 s timeout.
const slow = startSlowConnections(port, world.origin);
const production = await productionStart;

const check = (item: string, title: string) => {
  const c = new Check(item, title);
  checks.push(c);
  return c;
};

await run(check("2", "Factors planted before sign-up"), (c) => plantedFactorsCheck(c, world, bossEmail));
await run(check("3", "Admin power without the second factor"), (c) => adminTwoFactorsCheck(c, world, cast, chiefEmail));
await run(check("4", "A passkey without user verification"), (c) => passkeyVerificationCheck(c, world, cast));
await run(check("5", "Second-step guessing from many addresses"), (c) => codeGuessingCheck(c, world));
await run(check("6", "Backups and secrets at rest"), (c) => backupsCheck(c, world, cast));
await run(check("7", "Masking bypasses"), (c) => maskingCheck(c, world, cast));
await run(check("9", "Offer bait-and-switch"), (c) => offerPriceCheck(c, world, cast));
await run(check("10", "Duplicate passkey credential id"), (c) => duplicatePasskeyCheck(c, world, cast));
await run(check("11", "CSV formulas behind another separator"), (c) => csvCheck(c, cast));
await run(check("12", "Security log of changes"), (c) => securityLogCheck(c, world, cast));
await run(check("8", "Connections that never close"), async (c) => judgeSlowConnections(c, await slow));
const demoData = check("1", "A production start publishes an admin");
await run(demoData, async (c) => {
  await demoDataCheck(c, world, cast, production);
  await production.stop();
  production.cleanup();
});
// Last: the sweep's callers sign out, end sessions and (the two-factor admin) resolve and suspend.
await run(check("sweep", "Every documented operation as five callers"), async (c) => judgeSweep(c, await sweep(world, cast)));
await main.stop();
// Then item 1's last attack: a production start on the data directory an earlier local run seeded.
await run(demoData, (c) => productionOnDemoData(c, main.dataDir));

const serverErrors = main.output().split("\n").filter((l) => /"level":(50|60)/.test(l));
main.cleanup();

const order = (c: Check) => (c.item === "sweep" ? 99 : Number(c.item));
checks.sort((a, b) => order(a) - order(b));
for (const c of checks) c.print();
const failed = checks.filter((c) => !c.passed);
const attacks = checks.flatMap((c) => c.verdicts);
const notes = checks.flatMap((c) => c.outcomes.filter((o) => o.note));
console.log("\n== Summary ==");
for (const c of checks) {
  const v = c.verdicts;
  console.log(`${c.passed ? "PASS" : "FAIL"}  ${c.item.padStart(5)}. ${c.title}: ${v.filter((o) => o.pass).length}/${v.length}`);
}
console.log(
  `\n${checks.length - failed.length}/${checks.length} checks passed; ${attacks.filter((o) => o.pass).length}/${attacks.length} attacks held; ${notes.length} notes; ` +
    `server error log lines: ${serverErrors.length}; ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
for (const line of serverErrors.slice(0, 5)) console.log(`  server error: ${line.slice(0, 300)}`);
process.exit(failed.length > 0 || serverErrors.length > 0 ? 1 : 0);
