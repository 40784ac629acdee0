import { createHash } from "node:crypto";

// The job board's answers, kept as the bytes sent until something they show changes
// (docs/decisions/035-job-board-cache.md, 038-board-answers-dropped-by-reach.md). Every instance
// keeps its own; each drops what a change may reach and did not see when it hears the change
// (LISTEN task_updates, which names the committing transaction), and the instance that made the
// change also drops it inside the change's transaction, so a person who posts or claims and then
// asks again never gets the answer from before their own change. Each answer knows which
// transactions its statement saw (its snapshot), so a notice heard after the statement began, for
// a commit the statement already saw, costs nothing.

export interface BoardAnswer {
  /** The JSON as UTF-8 bytes: encoded once, not once per request. */
  body: Buffer;
  /** A strong validator of the bytes, for If-None-Match. */
  etag: string;
}

/** The category a board query is limited to, or null for every category. */
type Scope = string | null;

/** A kept answer's test of a change: may the changed task now show on it, or move its cards? */
export type Reach<Change> = (change: Change) => boolean;

interface Entry<Change> extends BoardAnswer {
  scope: Scope;
  reach: Reach<Change>;
  snapshot: Snapshot | null;
  storedAt: number;
}

/** What a query gives: its JSON, which changes it may show (board-reach.ts), and what it saw (null: not known). */
export interface LoadedAnswer<Change> {
  json: string;
  reach: Reach<Change>;
  snapshot: Snapshot | null;
}

export interface BoardCacheOptions {
  /**
   * What no notice covers: a poster's new name, photo or rating (a revealed review is announced,
   * but not as a board change), the "today" and "this week" filters moving with the clock.
   */
  maxAgeMs: number;
  /** Searches and positions make many keys; the least recently used go first. */
  maxEntries: number;
  now: () => number;
}

/** A change of a task in `changed` (null: in any category) touches a query limited to `scope`. */
const touches = (scope: Scope, changed: Scope) => changed === null || scope === null || scope === changed;

/**
 * Which transactions a statement saw (PostgreSQL's pg_current_snapshot(): xmin:xmax:xip,...): a
 * committed transaction is in it when it is older than xmin, or older than xmax and not listed as
 * running then.
 */
export interface Snapshot {
  xmin: bigint;
  xmax: bigint;
  running: ReadonlySet<bigint>;
}

export function parseSnapshot(text: string | null | undefined): Snapshot | null {
  const match = /^(\d+):(\d+):([\d,]*)$/.exec(text ?? "");
  if (!match) return null;
  const [, xmin = "", xmax = "", xip = ""] = match;
  return { xmin: BigInt(xmin), xmax: BigInt(xmax), running: new Set(xip ? xip.split(",").map(BigInt) : []) };
}

/** Did the statement with `snapshot` see the committed transaction `xid`? */
export const sawCommit = (snapshot: Snapshot, xid: bigint) => xid < snapshot.xmin || (xid < snapshot.xmax && !snapshot.running.has(xid));

/** A query's answer with what it may show and what it saw, as the query left it. */
interface Loaded<Change> {
  answer: BoardAnswer;
  reach: Reach<Change>;
  snapshot: Snapshot | null;
}

/**
 * A change as heard: inside its transaction on the instance making it (no xid yet: its notice will
 * bring it), or committed, with the id of the transaction that made it.
 */
export interface HeardChange<Change> {
  seq: number;
  scope: Scope;
  change: Change | null;
  xid: bigint | null;
}

/** More changes than any query lasts: past it, what a query missed is not known and it is not kept. */
const LOG_LIMIT = 1000;

export class BoardCache<Change> {
  private readonly entries = new Map<string, Entry<Change>>();
  /** Queries running now: identical requests that arrive meanwhile share the one answer. */
  private readonly running = new Map<string, { startedAt: number; loaded: Promise<Loaded<Change>> }>();
  private seq = 0;
  /** The changes heard since the oldest running query started (docs/decisions/038-board-answers-dropped-by-reach.md). */
  private log: HeardChange<Change>[] = [];
  /** Changes up to this number are no longer in the log. */
  private forgottenThrough = 0;

  constructor(private readonly options: BoardCacheOptions) {}

  answer(key: string, scope: Scope, load: () => Promise<LoadedAnswer<Change>>): Promise<BoardAnswer> {
    const now = this.options.now();
    const kept = this.entries.get(key);
    if (kept) {
      this.entries.delete(key);
      if (now - kept.storedAt < this.options.maxAgeMs) {
        this.entries.set(key, kept);
        return Promise.resolve(kept);
      }
    }
    const running = this.running.get(key);
    if (!running) return this.run(key, scope, load).then((l) => l.answer);
    // Join the query already running, unless a change heard since it started (up to now) is
    // missing from what it saw and may show on it: then this request asks again. That is how a
    // person who changed a task and asks right after sees their change.
    const asked = this.seq;
    return running.loaded.then((l) => (this.missed(l, scope, running.startedAt, asked, true) ? this.run(key, scope, load).then((again) => again.answer) : l.answer));
  }

  /**
   * A task in `category` joined, left or changed on the board (`change`; null when anything may
   * have: the notices were interrupted), inside its transaction (`xid` null) or committed by
   * transaction `xid`. Kept answers that did not see it and may show it are forgotten, so the
   * next request asks the database; a query running now is judged by the same test when it ends.
   * Returns the change as logged: the instance that made it sets its `xid` once its notice arrives.
   */
  changed(category: Scope, change: Change | null, xid: bigint | null): HeardChange<Change> {
    const heard = { seq: ++this.seq, scope: category, change, xid };
    this.log.push(heard);
    this.trimLog();
    for (const [key, entry] of this.entries) {
      if (!touches(entry.scope, category)) continue;
      if (change !== null && xid !== null && entry.snapshot && sawCommit(entry.snapshot, xid)) continue;
      if (change === null || entry.reach(change)) this.entries.delete(key);
    }
    return heard;
  }

  private run(key: string, scope: Scope, load: () => Promise<LoadedAnswer<Change>>): Promise<Loaded<Change>> {
    const startedAt = this.seq;
    const now = this.options.now();
    const loaded = load().then(({ json, reach, snapshot }) => {
      const body = Buffer.from(json);
      const result: Loaded<Change> = { answer: { body, etag: `"${createHash("sha1").update(body).digest("base64url")}"` }, reach, snapshot };
      // A committed change heard while the query ran that it did not see: answer who asked, keep
      // nothing. A change still inside its transaction is judged when its notice comes.
      if (!this.missed(result, scope, startedAt, this.seq, false)) this.keep(key, { ...result.answer, scope, reach, snapshot, storedAt: now });
      return result;
    });
    const shared = { startedAt, loaded };
    this.running.set(key, shared);
    const forget = () => {
      if (this.running.get(key) === shared) this.running.delete(key);
    };
    loaded.then(forget, forget);
    return loaded;
  }

  /**
   * Did a change numbered after `from` and up to `to`, in `scope`, escape `loaded`'s snapshot while
   * it may show on it? A change still without an xid counts only when `uncommittedCount` (it may
   * have committed after the query began, before the one asking asked); unknown counts as yes.
   */
  private missed(loaded: Loaded<Change>, scope: Scope, from: number, to: number, uncommittedCount: boolean): boolean {
    if (to === from) return false;
    if (from < this.forgottenThrough) return true;
    return this.log.some((c) => {
      if (c.seq <= from || c.seq > to || !touches(scope, c.scope)) return false;
      if (c.change === null) return true;
      if (c.xid === null) return uncommittedCount && loaded.reach(c.change);
      if (loaded.snapshot && sawCommit(loaded.snapshot, c.xid)) return false;
      return loaded.reach(c.change);
    });
  }

  /** Keeps the changes a running query may still ask about, and at most LOG_LIMIT. */
  private trimLog(): void {
    let oldest = this.seq;
    for (const run of this.running.values()) oldest = Math.min(oldest, run.startedAt);
    const keepFrom = Math.max(oldest, this.seq - LOG_LIMIT);
    if (this.log.length > 0 && (this.log[0]?.seq ?? 0) <= keepFrom) {
      this.log = this.log.filter((c) => c.seq > keepFrom);
      this.forgottenThrough = Math.max(this.forgottenThrough, keepFrom);
    }
  }

  private keep(key: string, entry: Entry<Change>): void {
    this.entries.set(key, entry);
    if (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }
}
