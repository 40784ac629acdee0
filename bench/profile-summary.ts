import { existsSync, readFileSync } from "node:fs";
import { benchArgs } from "./args.js";

// What a server's CPU went on, from the .cpuprofile files bench:load --builds --cpu-prof writes (one
// per build per measurement, each with a .meta.json: the build, the requests it served, the CPU per
// request of the process and of its main thread):
//
//   npx tsx bench/profile-summary.ts .cache/profiles/<time>/*.cpuprofile [--top=30] [--area=NAME]
//   npx tsx bench/profile-summary.ts .cache/profiles/<time>/*.heapprofile   (--alloc-prof: KB allocated per request)
//
// Profiles of the same build are added up. Every sample is put in an area (session and auth,
// admission, metrics, zod, fast-json-stringify, drizzle, pg, pino, ...) by the first frame from the
// top of its stack that has a file, so a builtin (JSON.stringify, a regular expression) counts for
// the code that called it. A share of the main thread's samples times the main thread's measured
// CPU per request gives microseconds per request, which a loaded machine changes far less than it
// changes throughput. With two builds, their columns side by side and the difference
// (docs/profiles/2026-12-request-cost.md).

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  parent?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}
interface Meta {
  build: string;
  requests: number;
  mainThreadMs: number;
  serverMs: number;
}

/** Areas by the file (or, for V8's own entries, the name) of a frame; the first rule that matches names it. */
const AREAS: [string, RegExp][] = [
  ["pino (logging)", /node_modules\/(pino|pino-std-serializers|sonic-boom|thread-stream|fast-redact|@pinojs\/[^/]+|on-exit-leak-free|quick-format-unescaped|atomic-sleep|safe-stable-stringify)\//],
  ["fast-json-stringify (response serialisation)", /node_modules\/(fast-json-stringify|json-schema-ref-resolver|fast-uri|ajv|ajv-formats)\//],
  ["fastify-type-provider-zod", /node_modules\/fastify-type-provider-zod\//],
  ["zod (validation, response checks)", /node_modules\/zod\//],
  ["drizzle-orm (building, mapping)", /node_modules\/drizzle-orm\//],
  ["pg (protocol, pool, types)", /node_modules\/(pg|pg-protocol|pg-pool|pg-types|pg-cloudflare|pgpass|pg-connection-string|postgres-array|postgres-bytea|postgres-date|postgres-interval|buffer-writer|packet-reader)\//],
  ["prom-client (metrics)", /node_modules\/(prom-client|tdigest|bintrees)\//],
  ["cookies", /node_modules\/(@fastify\/cookie|cookie|cookie-signature)\//],
  ["websocket (ws)", /node_modules\/(ws|@fastify\/websocket)\//],
  ["fastify (routing, hooks, reply)", /node_modules\/(fastify|@fastify\/[^/]+|find-my-way|avvio|light-my-request|fast-querystring|toad-cache|secure-json-parse|process-warning|abstract-logging|rfdc|fast-decode-uri-component|ret|safe-regex2|content-type|fastify-plugin|proxy-addr|forwarded|ipaddr\.js|semver)\//],
  ["contact masking (libphonenumber, linkify)", /node_modules\/(libphonenumber-js|linkify-it|tlds|uc\.micro|mdurl)\/|server\/contact-masking\.js|chat\/masked-content\.js/],
  ["app: session lookup and auth hook", /server\/(plugins\/auth|features\/auth\/(sessions|factors))\.js/],
  ["app: security log", /server\/features\/auth\/security-log\.js/],
  ["app: admission and connection cap", /server\/plugins\/(admission|connection-cap)\.js/],
  ["app: metrics", /server\/(plugins\/metrics|metrics)\.js/],
  ["app: security headers and Origin check", /server\/plugins\/security\.js/],
  ["app: rate limits", /server\/plugins\/rate-limit\.js/],
  ["app: errors", /server\/(plugins\/(errors|client-errors)|http-errors)\.js/],
  ["app: board cache and query", /server\/features\/tasks\/(board-[^/]+|job-board[^/]*)\.js/],
  ["app: prepared statements (db/prepared)", /server\/db\/prepared\.js/],
  ["app: db client, LISTEN", /server\/db\/client\.js/],
  ["app: task updates, notices", /server\/(task-updates|notify|transition-actions|after-answer)\.js/],
  ["app: pages (spa)", /server\/plugins\/spa\.js/],
  ["app: scheduler", /server\/scheduler\.js/],
];

function areaOf(frame: CallFrame): string | null {
  const { url, functionName } = frame;
  if (functionName === "(garbage collector)") return "V8: garbage collector";
  if (functionName === "(idle)") return "(idle)";
  if (functionName === "(program)") return "V8: (program), native code outside JavaScript";
  if (functionName === "(root)") return null;
  if (url === "") return null;
  for (const [name, pattern] of AREAS) if (pattern.test(url)) return name;
  const feature = /server\/features\/([^/]+)\//.exec(url);
  if (feature) return `app: features/${feature[1]}`;
  if (/\/dist\/server\//.test(url)) return "app: other";
  if (/^node:(_http|http)/.test(url)) return "node: http";
  if (/^node:(net|stream|internal\/streams|internal\/stream_base|_stream)/.test(url)) return "node: net and streams";
  if (/^node:(internal\/)?(crypto|buffer)/.test(url)) return "node: crypto and buffers";
  if (/^node:internal\/(timers|process\/task_queues|async_hooks|process\/promises)/.test(url)) return "node: timers, promises, async hooks";
  if (url.startsWith("node:")) return "node: other";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return `package: ${pkg[1]}`;
  return "other";
}

/** A function by name and file, so two builds' columns meet; an anonymous one by its line too. */
const key = (f: CallFrame) => {
  // From the checkout's dist/ or node_modules/ on, so two checkouts' files meet (ES modules come as file:// URLs, CommonJS as paths).
  const file = f.url.replace(/^(?:file:\/\/)?\/.*?\/(dist|node_modules)\//, "$1/");
  return f.functionName ? `${f.functionName} ${file}` : `(anonymous) ${file}:${f.lineNumber + 1}`;
};

interface Tally {
  profiles: number;
  samples: number;
  idle: number;
  requests: number;
  mainThreadMs: number;
  serverMs: number;
  selfByArea: Map<string, number>;
  inclusiveByArea: Map<string, number>;
  selfByFunction: Map<string, number>;
  inclusiveByFunction: Map<string, number>;
}

function add(map: Map<string, number>, k: string, n = 1): void {
  map.set(k, (map.get(k) ?? 0) + n);
}

/** A sampling heap profile (HeapProfiler.stopSampling): a tree of allocation sites, each with the bytes sampled there. */
interface HeapNode {
  id: number;
  callFrame: CallFrame;
  selfSize: number;
  children: HeapNode[];
}

/** The allocation tree as a CPU profile whose "samples" are kilobytes: the same areas and tables then read it. */
function fromHeapProfile(head: HeapNode): Profile {
  const nodes: ProfileNode[] = [];
  const samples: number[] = [];
  const walk = (n: HeapNode) => {
    nodes.push({ id: n.id, callFrame: n.callFrame, children: n.children.map((c) => c.id) });
    for (let kb = Math.round(n.selfSize / 1024); kb > 0; kb--) samples.push(n.id);
    n.children.forEach(walk);
  };
  walk(head);
  return { nodes, samples, timeDeltas: [] };
}

function tallyProfile(t: Tally, profile: Profile, onlyArea: string | null): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const n of profile.nodes) for (const c of n.children ?? []) {
    const child = byId.get(c);
    if (child) child.parent = n.id;
  }
  // Each node's stack once: its area (first frame with a file from the top), and what it includes.
  const cache = new Map<number, { area: string; self: string; areas: Set<string>; functions: Set<string> }>();
  const describe = (id: number) => {
    const hit = cache.get(id);
    if (hit) return hit;
    const node = byId.get(id);
    if (!node) throw new Error(`profile node ${id} missing`);
    let area: string | null = null;
    const areas = new Set<string>();
    const functions = new Set<string>();
    for (let at: ProfileNode | undefined = node; at; at = at.parent === undefined ? undefined : byId.get(at.parent)) {
      const a = areaOf(at.callFrame);
      if (a) {
        area ??= a;
        areas.add(a);
      }
      if (at.callFrame.url.includes("/dist/server/") || (at.callFrame.url.includes("node_modules/") && at !== node)) functions.add(key(at.callFrame));
    }
    const described = { area: area ?? "other", self: key(node.callFrame), areas, functions };
    cache.set(id, described);
    return described;
  };
  for (const id of profile.samples) {
    const d = describe(id);
    t.samples++;
    if (d.area === "(idle)") {
      t.idle++;
      continue;
    }
    if (onlyArea && !d.areas.has(onlyArea)) continue;
    add(t.selfByArea, d.area);
    add(t.selfByFunction, `${d.self}  [${d.area}]`);
    for (const a of d.areas) add(t.inclusiveByArea, a);
    for (const f of d.functions) add(t.inclusiveByFunction, f);
  }
}

function main(): void {
  const args = benchArgs();
  const files = process.argv.slice(2).filter((a) => !a.startsWith("--"));
  const top = Number(args.get("top") ?? 30);
  const onlyArea = args.get("area") ?? null;
  if (files.length === 0) throw new Error("usage: npx tsx bench/profile-summary.ts <file.cpuprofile>... [--top=30] [--area=NAME]");
  const tallies = new Map<string, Tally>();
  for (const file of files) {
    const metaFile = file.replace(/\.(cpuprofile|heapprofile)$/, ".meta.json");
    const meta: Meta | null = existsSync(metaFile) ? (JSON.parse(readFileSync(metaFile, "utf8")) as Meta) : null;
    const build = meta?.build ?? file;
    let t = tallies.get(build);
    if (!t) {
      t = { profiles: 0, samples: 0, idle: 0, requests: 0, mainThreadMs: 0, serverMs: 0, selfByArea: new Map(), inclusiveByArea: new Map(), selfByFunction: new Map(), inclusiveByFunction: new Map() };
      tallies.set(build, t);
    }
    t.profiles++;
    if (meta) {
      t.requests += meta.requests;
      t.mainThreadMs += meta.mainThreadMs * meta.requests;
      t.serverMs += meta.serverMs * meta.requests;
    }
    const parsed = JSON.parse(readFileSync(file, "utf8")) as Profile | { head: HeapNode };
    tallyProfile(t, "head" in parsed ? fromHeapProfile(parsed.head) : parsed, onlyArea);
  }
  const builds = [...tallies.keys()];
  const list = [...tallies.values()];
  // µs per request of a count of samples: its share of the busy samples times the main thread's CPU
  // per request; of an allocation profile's kilobytes: kilobytes allocated per request.
  const allocations = files.every((f) => f.endsWith(".heapprofile"));
  const unit = allocations ? "KB/request" : "µs/request";
  const perRequest = (t: Tally, n: number) =>
    t.requests > 0 ? (allocations ? n / t.requests : (n / Math.max(1, t.samples - t.idle)) * (t.mainThreadMs / t.requests) * 1000) : Number.NaN;
  for (const [build, t] of tallies) {
    console.log(
      `${build}: ${t.profiles} profile(s), ${t.samples} samples, ${(((t.samples - t.idle) / Math.max(1, t.samples)) * 100).toFixed(0)}% busy; ${t.requests} requests; ` +
        `CPU per request: process ${(t.serverMs / Math.max(1, t.requests)).toFixed(3)} ms, main thread ${(t.mainThreadMs / Math.max(1, t.requests)).toFixed(3)} ms`,
    );
  }
  const table = (title: string, pick: (t: Tally) => Map<string, number>, rows: number) => {
    const keys = new Set<string>();
    for (const t of list) for (const k of pick(t).keys()) keys.add(k);
    const sorted = [...keys].sort((a, b) => (pick(list.at(-1) as Tally).get(b) ?? 0) - (pick(list.at(-1) as Tally).get(a) ?? 0));
    const twoBuilds = list.length === 2;
    console.log(`\n${title}\n`);
    console.log(`| ${builds.map((b) => `${b}: share, ${unit}`).join(" | ")} |${twoBuilds ? ` difference ${unit} |` : ""} |`);
    console.log(`|${builds.map(() => "---|").join("")}${twoBuilds ? "---|" : ""}---|`);
    for (const k of sorted.slice(0, rows)) {
      const cells = list.map((t) => {
        const n = pick(t).get(k) ?? 0;
        return `${((n / Math.max(1, t.samples - t.idle)) * 100).toFixed(1)}%, ${perRequest(t, n).toFixed(allocations ? 2 : 1)}`;
      });
      const diff = twoBuilds ? ` ${(perRequest(list[1] as Tally, pick(list[1] as Tally).get(k) ?? 0) - perRequest(list[0] as Tally, pick(list[0] as Tally).get(k) ?? 0)).toFixed(1)} |` : "";
      console.log(`| ${cells.join(" | ")} |${diff} ${k.replaceAll("|", "\\|")} |`);
    }
  };
  table("Self time by area (builtins count for their caller's area)", (t) => t.selfByArea, 60);
  table("Inclusive time by area (a sample counts for every area on its stack)", (t) => t.inclusiveByArea, 60);
  table("Self time by function", (t) => t.selfByFunction, top);
  table("Inclusive time by function (app and package functions)", (t) => t.inclusiveByFunction, top);
}

main();
