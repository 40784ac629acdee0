import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";

// The figures of builds measured in turns (A B, B A, ...; bench/compare.ts), one line per
// measurement as it ends, then the medians of each build and the ratio of the last build to the
// first (head / base). On a machine others load, a figure of one measurement says little; the two
// builds measured within seconds of each other, round after round, share the load, so the per-round
// ratio and its spread say more (docs/benchmarks.md, "Side by side").

export interface Figure {
  key: string;
  label: string;
  digits: number;
}

interface Measurement {
  build: string;
  round: number;
  loadAverage: string;
  values: Record<string, number>;
}

export const loadAverageNow = () => loadavg().map((l) => l.toFixed(1)).join(" ");

const median = (values: number[]) => {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

const show = (v: number, digits: number) => (Number.isNaN(v) ? "-" : v.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }));

export class Comparison {
  private readonly measurements: Measurement[] = [];

  constructor(
    readonly bench: string,
    readonly builds: string[],
    readonly figures: Figure[],
  ) {}

  /** Records one measurement and prints it on one line, with the load average it started under. */
  add(build: string, round: number, loadAverage: string, values: Record<string, number>): void {
    this.measurements.push({ build, round, loadAverage, values });
    const shown = this.figures.filter((f) => values[f.key] !== undefined).map((f) => `${f.label} ${show(values[f.key] ?? Number.NaN, f.digits)}`);
    console.log(`round ${round}, ${build} (load average ${loadAverage}): ${shown.join(", ")}`);
  }

  /** A figure known only after the round (hello world's ratio): set on a recorded measurement. */
  set(build: string, round: number, key: string, value: number): void {
    const m = this.measurements.find((x) => x.build === build && x.round === round);
    if (m) m.values[key] = value;
  }

  private valuesOf(build: string, key: string): number[] {
    return this.measurements.filter((m) => m.build === build).map((m) => m.values[key] ?? Number.NaN);
  }

  /** The last build over `other`, round by round, for rounds where both were measured. */
  private roundRatios(key: string, other: string): number[] {
    const last = this.builds.at(-1);
    const rounds = [...new Set(this.measurements.map((m) => m.round))];
    return rounds.flatMap((round) => {
      const a = this.measurements.find((m) => m.build === other && m.round === round)?.values[key];
      const b = this.measurements.find((m) => m.build === last && m.round === round)?.values[key];
      return a === undefined || b === undefined || a === 0 ? [] : [b / a];
    });
  }

  /**
   * The medians of each build, then the last build's ratio to each earlier one (with three builds,
   * `--also`: the head against the base and against the middle one): of the medians, and per round.
   */
  print(): void {
    const last = this.builds.at(-1) ?? "";
    const others = this.builds.slice(0, -1);
    const rounds = new Set(this.measurements.map((m) => m.round)).size;
    console.log(`\n${this.bench}: medians of ${rounds} rounds; ratio = ${last} / ${others.join(", and / ")}\n`);
    const ratioHeads = others.flatMap((o) => (others.length > 1 ? [`ratio to ${o}: of the medians`, "per round: median (range)"] : ["ratio of the medians", "per-round ratios: median (range)"]));
    console.log(`| figure | ${this.builds.join(" | ")} | ${ratioHeads.join(" | ")} |`);
    console.log(`|---|${this.builds.map(() => "---|").join("")}${ratioHeads.map(() => "---|").join("")}`);
    for (const f of this.figures) {
      const medians = this.builds.map((b) => median(this.valuesOf(b, f.key)));
      if (medians.every((v) => Number.isNaN(v))) continue;
      const cells = others.flatMap((other, i) => {
        const ratio = (medians.at(-1) ?? Number.NaN) / (medians[i] ?? Number.NaN);
        const perRound = this.roundRatios(f.key, other).sort((a, b) => a - b);
        const spread = perRound.length > 0 ? `${show(median(perRound), 3)} (${show(perRound[0] ?? Number.NaN, 3)} to ${show(perRound.at(-1) ?? Number.NaN, 3)})` : "-";
        return [Number.isFinite(ratio) ? show(ratio, 3) : "-", spread];
      });
      console.log(`| ${f.label} | ${medians.map((v) => show(v, f.digits)).join(" | ")} | ${cells.join(" | ")} |`);
    }
    const loads = this.measurements.map((m) => Number(m.loadAverage.split(" ")[0]));
    console.log(`\nload average (1 min) at the measurements' starts: ${show(Math.min(...loads), 1)} to ${show(Math.max(...loads), 1)}`);
  }

  /** Every measurement as JSON under .cache/compare/results/, for the record a doc row cites. */
  save(extra: Record<string, unknown> = {}): string {
    const dir = resolve(import.meta.dirname, "..", ".cache", "compare", "results");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${this.bench.replace(/\W+/g, "-")}.json`);
    writeFileSync(file, JSON.stringify({ bench: this.bench, builds: this.builds, measurements: this.measurements, ...extra }, null, 1));
    return file;
  }
}
