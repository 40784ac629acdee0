import net from "node:net";
import { networkInterfaces } from "node:os";
import { Browser } from "../http.js";
import { launch, mailLinks, type Launched } from "../server.js";
import type { Check } from "../report.js";
import type { Cast, World } from "../world.js";

// Item 1: a production start published the demo admin. Played as an operator would start it, and
// as an attacker would then sign in with the README's logins; the admin's outbox read for links.

const PUBLISHED = "https://errandly.example";

/** Production as the issue started it (no HOST, no SEED_DEMO) on a fresh data directory: started at the probe's beginning, beside the main server. */
export function startProductionDefault(): Promise<Launched> {
  return launch({ NODE_ENV: "production", PUBLIC_URL: PUBLISHED, LOG_LEVEL: "warn" });
}

function nonLoopbackAddress(): string | null {
  for (const list of Object.values(networkInterfaces())) {
    for (const nic of list ?? []) if (nic.family === "IPv4" && !nic.internal) return nic.address;
  }
  return null;
}

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(2000);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

async function refusedStart(check: Check, name: string, env: Record<string, string>, mustName: RegExp): Promise<void> {
  const server = await launch(env, { timeoutMs: 60_000 });
  try {
    const out = server.output().trim().split("\n").filter(Boolean).at(-1) ?? "";
    check.expect(
      name,
      server.exited() && server.exitCode() !== 0 && mustName.test(server.output()),
      server.exited() ? `exit ${server.exitCode()}: ${out.slice(0, 160)}` : "it started and is serving",
    );
  } finally {
    await server.stop();
    server.cleanup();
  }
}

export async function demoDataCheck(check: Check, world: World, cast: Cast, production: Launched): Promise<void> {
  await refusedStart(check, "NODE_ENV=production SEED_DEMO=true refuses to start", { NODE_ENV: "production", PUBLIC_URL: PUBLISHED, SEED_DEMO: "true" }, /SEED_DEMO/);
  await refusedStart(check, "HOST=0.0.0.0 SEED_DEMO=true (development) refuses to start", { NODE_ENV: "development", HOST: "0.0.0.0", SEED_DEMO: "true" }, /SEED_DEMO[\s\S]*HOST|HOST[\s\S]*SEED_DEMO/);

  // The start: NODE_ENV=production PUBLIC_URL=https://errandly.example, nothing else.
  const out = production.output();
  const listening = /listening on (\S+)\)/.exec(out)?.[1] ?? "(not printed)";
  check.expect("a production start listens on loopback by default", /^http:\/\/127\.0\.0\.1:/.test(listening), `listening on ${listening}`);
  const other = nonLoopbackAddress();
  if (other) {
    const reached = await connects(other, production.port);
    check.expect(`the production server is not reachable on ${other}`, !reached, reached ? "a connection opened" : "connection refused");
  }
  check.expect("a production start prints no demo logins", !/Demo logins|demo-harbor|add the key/.test(out), /Demo logins/.test(out) ? "it printed them" : "none printed");
  const visitor = new Browser(production.url, PUBLISHED, world.address());
  const signIn = await visitor.post("/api/auth/login", { email: "admin@errandly.test", password: world.demo.password }, { noOrigin: true });
  check.expect("the published admin login does not work in production", signIn.status === 401, `sign-in answered ${signIn.status}`);
  visitor.close();

  // The outbox as the two-factor admin: every mail the probe caused so far, links with tokens hidden.
  const outbox = await cast.admin2.browser.get("/api/admin/outbox");
  const tokens = mailLinks(world.server, cast.victim.email)
    .concat(mailLinks(world.server, cast.stranger.email))
    .map((l) => new URL(l).searchParams.get("token"))
    .filter((t): t is string => Boolean(t));
  const shown = tokens.filter((t) => outbox.text.includes(t));
  check.expect(
    "the admin outbox hides one-time links",
    outbox.status === 200 && tokens.length > 0 && shown.length === 0 && !/token=/.test(outbox.text) && outbox.text.includes("[link hidden"),
    `${outbox.status}; ${tokens.length} live tokens mailed, ${shown.length} shown, ${(outbox.text.match(/\[link hidden/g) ?? []).length} links hidden`,
  );
}

/**
 * After the main server stopped: a production start on its data directory, which holds the demo
 * accounts on the published password (an earlier local start seeded them), must refuse.
 */
export async function productionOnDemoData(check: Check, dataDir: string): Promise<void> {
  const server = await launch({ NODE_ENV: "production", PUBLIC_URL: PUBLISHED, LOG_LEVEL: "warn" }, { dataDir, timeoutMs: 120_000 });
  try {
    const last = server.output().trim().split("\n").filter(Boolean).at(-1) ?? "";
    check.expect(
      "production refuses a database holding the published demo logins",
      server.exited() && server.exitCode() !== 0,
      server.exited() ? `exit ${server.exitCode()}: ${last.slice(0, 160)}` : "it started with the demo logins in its database",
    );
  } finally {
    await server.stop();
  }
}
