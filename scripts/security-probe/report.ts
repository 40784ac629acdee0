// What the probe prints: one block per numbered item of issue 40, a line per attack tried
// (PASS or FAIL and why), and the counts at the end.

export interface Outcome {
  name: string;
  pass: boolean;
  reason: string;
  /** Not a verdict: what the probe saw, for the reader to weigh (a known, documented limit). */
  note?: boolean;
}

export class Check {
  readonly outcomes: Outcome[] = [];
  error: string | null = null;
  seconds = 0;

  constructor(
    readonly item: string,
    readonly title: string,
  ) {}

  /** Records one attack's outcome: `pass` when the server held. */
  expect(name: string, pass: boolean, reason: string): boolean {
    this.outcomes.push({ name, pass, reason });
    return pass;
  }

  /** Records what was seen without a verdict. */
  note(name: string, reason: string): void {
    this.outcomes.push({ name, pass: true, reason, note: true });
  }

  get verdicts(): Outcome[] {
    return this.outcomes.filter((o) => !o.note);
  }

  get passed(): boolean {
    return this.error === null && this.verdicts.length > 0 && this.verdicts.every((o) => o.pass);
  }

  print(): void {
    const verdicts = this.verdicts;
    const failed = verdicts.filter((o) => !o.pass).length;
    const head = this.passed ? "PASS" : "FAIL";
    console.log(`\n${head}  ${this.item}. ${this.title}  (${verdicts.length - failed}/${verdicts.length} held, ${this.seconds.toFixed(0)} s)`);
    for (const o of this.outcomes) console.log(`  ${o.note ? "note" : o.pass ? "pass" : "FAIL"}  ${o.name}: ${o.reason}`);
    if (this.error) console.log(`  FAIL  the check could not finish: ${this.error}`);
  }
}

/**
 * Runs `body` as (part of) one check and prints a line of progress; a thrown error fails the check
 * with its message rather than stopping the probe. The checks' lines are printed at the end.
 */
export async function run(check: Check, body: (check: Check) => Promise<void>): Promise<Check> {
  const started = performance.now();
  try {
    await body(check);
  } catch (err) {
    check.error = err instanceof Error ? (err.stack ?? err.message).split("\n").slice(0, 3).join(" | ") : String(err);
  }
  const seconds = (performance.now() - started) / 1000;
  check.seconds += seconds;
  const held = check.verdicts.filter((o) => o.pass).length;
  console.log(`  ${check.item}. ${check.title}: ${held}/${check.verdicts.length} held${check.error ? ", could not finish" : ""} (${seconds.toFixed(0)} s)`);
  return check;
}

/** A short, one-line view of an answer for a reason. */
export function brief(status: number, text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return `${status} ${oneLine.length > 140 ? `${oneLine.slice(0, 140)}…` : oneLine}`;
}
