import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { benchArgs } from "./args.js";

// What a server's heap holds, from the .heapsnapshot files bench:load --builds --heap-snapshot
// writes (after the warm-up and at the end of the load, per build):
//
//   npx tsx bench/heap-summary.ts a.heapsnapshot b.heapsnapshot [--top=40] [--retainers=Name,Name] [--paths=5]
//
// Objects are counted and their own sizes summed by what made them (the constructor of an object,
// the name of a closure, strings, arrays, compiled code); with two snapshots, the columns side by
// side and the difference, largest first. --retainers prints, for a few objects of each named
// constructor, the chain of what holds them up to a root, so a Map that grows per request names
// its owner (docs/profiles/2026-12-request-cost.md).

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]]; edge_fields: string[]; edge_types: [string[], ...unknown[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

interface Parsed {
  file: string;
  count: number;
  totalSize: number;
  groups: Map<string, { count: number; size: number }>;
  /** For retainer paths: each node's group name, its first edge, its retainers. */
  raw: Snapshot;
  nodeFieldCount: number;
  firstEdge: Int32Array;
  retainers: Map<number, number[]>;
  groupOf: (node: number) => string;
}

function parse(file: string, withRetainers: boolean): Parsed {
  const raw = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
  const meta = raw.snapshot.meta;
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const [typeAt, nameAt, sizeAt, edgeCountAt] = ["type", "name", "self_size", "edge_count"].map((f) => meta.node_fields.indexOf(f)) as [number, number, number, number];
  const nodeTypes = meta.node_types[0];
  const [edgeTypeAt, edgeNameAt, toAt] = ["type", "name_or_index", "to_node"].map((f) => meta.edge_fields.indexOf(f)) as [number, number, number];
  const edgeTypes = meta.edge_types[0];
  const nodes = raw.nodes;
  const count = nodes.length / nf;
  const groupOf = (node: number) => {
    const type = nodeTypes[nodes[node * nf + typeAt] ?? 0] ?? "?";
    const name = raw.strings[nodes[node * nf + nameAt] ?? 0] ?? "?";
    if (type === "object" || type === "closure" || type === "native") return type === "closure" ? `closure ${name}` : name.split(" ")[0] === "system" ? name : name;
    if (type === "string" || type === "concatenated string" || type === "sliced string") return "(strings)";
    if (type === "code") return "(compiled code)";
    if (type === "array") return `(array) ${name}`;
    if (type === "hidden") return `(hidden) ${name.slice(0, 40)}`;
    return `(${type})`;
  };
  const groups = new Map<string, { count: number; size: number }>();
  let totalSize = 0;
  const firstEdge = new Int32Array(count + 1);
  for (let i = 0, edge = 0; i < count; i++) {
    firstEdge[i] = edge;
    edge += (nodes[i * nf + edgeCountAt] ?? 0) * ef;
    const size = nodes[i * nf + sizeAt] ?? 0;
    totalSize += size;
    const g = groupOf(i);
    const entry = groups.get(g) ?? { count: 0, size: 0 };
    entry.count++;
    entry.size += size;
    groups.set(g, entry);
  }
  firstEdge[count] = raw.edges.length;
  const retainers = new Map<number, number[]>();
  if (withRetainers) {
    for (let i = 0; i < count; i++) {
      for (let e = firstEdge[i] ?? 0; e < (firstEdge[i + 1] ?? 0); e += ef) {
        const type = edgeTypes[raw.edges[e + edgeTypeAt] ?? 0];
        if (type === "weak" || type === "shortcut") continue;
        const to = (raw.edges[e + toAt] ?? 0) / nf;
        const list = retainers.get(to);
        if (list) {
          if (list.length < 8) list.push(i);
        } else retainers.set(to, [i]);
      }
    }
  }
  void edgeNameAt;
  return { file, count, totalSize, groups, raw, nodeFieldCount: nf, firstEdge, retainers, groupOf };
}

/** Up to `paths` chains of holders of objects named `name`, each from the object towards a root (node 0). */
function retainerPaths(p: Parsed, name: string, paths: number): string[] {
  const found: string[] = [];
  for (let i = 0; i < p.count && found.length < paths; i++) {
    if (p.groupOf(i) !== name) continue;
    const chain: string[] = [];
    const seen = new Set<number>([i]);
    let at = i;
    for (let depth = 0; depth < 12; depth++) {
      // Prefer a holder that is not V8's own bookkeeping, so the chain reads as the program's.
      const holders = (p.retainers.get(at) ?? []).filter((h) => !seen.has(h));
      const next = holders.find((h) => !p.groupOf(h).startsWith("(hidden)") && !p.groupOf(h).startsWith("system")) ?? holders[0];
      if (next === undefined || next === 0) break;
      chain.push(p.groupOf(next));
      seen.add(next);
      at = next;
    }
    found.push(`${name} <- ${chain.join(" <- ")}`);
  }
  return found;
}

function main(): void {
  const args = benchArgs();
  const files = process.argv.slice(2).filter((a) => !a.startsWith("--"));
  if (files.length === 0 || files.length > 2) throw new Error("usage: npx tsx bench/heap-summary.ts a.heapsnapshot [b.heapsnapshot] [--top=40] [--retainers=Name,Name] [--paths=5]");
  const top = Number(args.get("top") ?? 40);
  const named = args.get("retainers")?.split(",") ?? [];
  const parsed = files.map((f) => parse(f, named.length > 0 || args.has("largest")));
  const mb = (n: number) => (n / 1048576).toFixed(2);
  for (const p of parsed) console.log(`${basename(p.file)}: ${p.count.toLocaleString("en-US")} objects, ${mb(p.totalSize)} MB of own sizes`);
  const [a, b] = [parsed[0], parsed[1]];
  if (!a) return;
  const keys = new Set([...a.groups.keys(), ...(b?.groups.keys() ?? [])]);
  const delta = (k: string) => (b?.groups.get(k)?.size ?? 0) - (a.groups.get(k)?.size ?? 0);
  const order = [...keys].sort((x, y) => (b ? Math.abs(delta(y)) - Math.abs(delta(x)) : (a.groups.get(y)?.size ?? 0) - (a.groups.get(x)?.size ?? 0)));
  console.log(`\n| what | ${parsed.map((p) => `${basename(p.file)}: count, MB`).join(" | ")} |${b ? " difference MB |" : ""}`);
  console.log(`|---|${parsed.map(() => "---|").join("")}${b ? "---|" : ""}`);
  for (const k of order.slice(0, top)) {
    const cells = parsed.map((p) => `${(p.groups.get(k)?.count ?? 0).toLocaleString("en-US")}, ${mb(p.groups.get(k)?.size ?? 0)}`);
    console.log(`| ${k.replaceAll("|", "\\|").slice(0, 80)} | ${cells.join(" | ")} |${b ? ` ${mb(delta(k))} |` : ""}`);
  }
  // --largest=N: the biggest single objects of the last snapshot and what holds each (a module's
  // source text, a data table a library loads, a cache).
  const last = parsed.at(-1);
  const largest = Number(args.get("largest") ?? 0);
  if (last && largest > 0) {
    const nf = last.nodeFieldCount;
    const sizeAt = last.raw.snapshot.meta.node_fields.indexOf("self_size");
    const nameAt = last.raw.snapshot.meta.node_fields.indexOf("name");
    const ids = Array.from({ length: last.count }, (_, i) => i).sort((x, y) => (last.raw.nodes[y * nf + sizeAt] ?? 0) - (last.raw.nodes[x * nf + sizeAt] ?? 0));
    console.log(`\n${basename(last.file)}: the ${largest} largest objects`);
    for (const i of ids.slice(0, largest)) {
      const name = (last.raw.strings[last.raw.nodes[i * nf + nameAt] ?? 0] ?? "").replace(/\s+/g, " ").slice(0, 70);
      const holders = (last.retainers.get(i) ?? []).slice(0, 2).map((h) => `${last.groupOf(h)} "${(last.raw.strings[last.raw.nodes[h * nf + nameAt] ?? 0] ?? "").slice(0, 50)}"`);
      console.log(`  ${mb(last.raw.nodes[i * nf + sizeAt] ?? 0)} MB ${last.groupOf(i)} "${name}" held by ${holders.join("; ")}`);
    }
  }
  for (const name of named) {
    for (const p of parsed) {
      console.log(`\n${basename(p.file)}: what holds ${name}`);
      for (const line of retainerPaths(p, name, Number(args.get("paths") ?? 5))) console.log(`  ${line}`);
    }
  }
}

main();
