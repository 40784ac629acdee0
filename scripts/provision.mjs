// Makes sure the machine has what the browser and multi-instance tests need:
//   Chromium: Debian's `chromium` and `chromium-headless-shell` when root, Playwright's download
//   otherwise (or CHROMIUM_PATH).
//   PostgreSQL server binaries: Debian's `postgresql` when root (for the cross-instance tests).
//   HAProxy and PgBouncer: Debian's `haproxy` and `pgbouncer` when root (the topology fault test,
//   test/faults/topology.faults.ts; docs/deploy.md).
import { execFileSync, execSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
let aptUpdated = false;

function apt(packages) {
  if (!aptUpdated) {
    execSync("apt-get update -qq", { stdio: "inherit" });
    aptUpdated = true;
  }
  execSync(`DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages}`, { stdio: "inherit" });
}

export function postgresBinDir() {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).filter((v) => existsSync(`${base}/${v}/bin/initdb`)).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? `${base}/${versions[0]}/bin` : null;
}

export function ensureChromium() {
  if (process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH)) return;
  // The journeys drive the headless shell; Lighthouse and the push journey the whole browser
  // (e2e/harness.ts, decision 084).
  const missing = [
    ["chromium", "/usr/bin/chromium"],
    ["chromium-headless-shell", "/usr/lib/chromium/chromium-headless-shell"],
  ].filter(([, path]) => !existsSync(path));
  if (missing.length === 0) return;
  if (isRoot) {
    const names = missing.map(([name]) => name).join(" ");
    console.log(`provision: installing Debian ${names}`);
    apt(names);
    return;
  }
  if (existsSync("/usr/bin/chromium")) return;
  console.log("provision: downloading Playwright's Chromium");
  execFileSync("npx", ["playwright-core", "install", "chromium"], { stdio: "inherit" });
}

export function ensurePostgres() {
  if (postgresBinDir()) return;
  if (!isRoot) {
    console.warn("provision: PostgreSQL server binaries are missing and we are not root; set PG_BIN_DIR");
    return;
  }
  console.log("provision: installing Debian postgresql");
  apt("postgresql");
}

/** Where Debian puts a daemon's binary, or null when it is not installed. */
export function daemonPath(name) {
  const path = `/usr/sbin/${name}`;
  return existsSync(path) ? path : null;
}

export function ensureTopologyTools() {
  const missing = ["haproxy", "pgbouncer"].filter((name) => !daemonPath(name));
  if (missing.length === 0) return;
  if (!isRoot) {
    console.warn(`provision: ${missing.join(" and ")} missing and we are not root; install Debian's ${missing.join(" and ")}`);
    return;
  }
  console.log(`provision: installing Debian ${missing.join(" and ")}`);
  apt(missing.join(" "));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureChromium();
  ensurePostgres();
  ensureTopologyTools();
}
