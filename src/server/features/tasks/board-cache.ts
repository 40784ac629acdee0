import { createHash } from "node:crypto";

// The job board's answers, kept as the bytes sent until something they show changes
// (docs/decisions/035-job-board-cache.md). Every instance keeps its own; each drops what a change
// touched when it hears the change (LISTEN task_updates), and the instance that made the change
// also drops it inside the change's transaction, so a person who posts or claims and then asks
// again never gets the answer from before their own change.

export interface BoardAnswer {
  /** The JSON as UTF-8 bytes: encoded once, not once per request. */
  body: Buffer;
  /** A strong validator of the bytes, for If-None-Match. */
  etag: string;
}

/** The category a board query is limited to, or null for every category. */
type Scope = string | null;

interface Entry extends BoardAnswer {
  scope: Scope;
  storedAt: number;
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

export class BoardCache {
  private readonly entries = new Map<string, Entry>();
  /** Queries running now: identical requests that arrive meanwhile share the one answer. */
  private readonly running = new Map<string, { scope: Scope; answer: Promise<BoardAnswer> }>();
  /** Changes heard, in all and per category, so an answer computed across a change is not kept. */
  private changes = 0;
  private unscopedChanges = 0;
  private readonly changesIn = new Map<string, number>();

  constructor(private readonly options: BoardCacheOptions) {}

  answer(key: string, scope: Scope, load: () => Promise<string>): Promise<BoardAnswer> {
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
    if (running) return running.answer;
    const version = this.versionOf(scope);
    const answer = load().then((json) => {
      const body = Buffer.from(json);
      const result = { body, etag: `"${createHash("sha1").update(body).digest("base64url")}"` };
      // A change heard while the query ran may not be in it: answer this request, keep nothing.
      if (this.versionOf(scope) === version) this.keep(key, { ...result, scope, storedAt: now });
      return result;
    });
    const shared = { scope, answer };
    this.running.set(key, shared);
    const forget = () => {
      if (this.running.get(key) === shared) this.running.delete(key);
    };
    answer.then(forget, forget);
    return answer;
  }

  /**
   * A task in `category` joined, left or changed on the board; null when anything may have (the
   * notices were interrupted). Queries it may touch are forgotten, kept or still running, so the
   * next request asks the database.
   */
  changed(category: Scope): void {
    this.changes++;
    if (category === null) this.unscopedChanges++;
    else this.changesIn.set(category, (this.changesIn.get(category) ?? 0) + 1);
    for (const [key, entry] of this.entries) if (touches(entry.scope, category)) this.entries.delete(key);
    for (const [key, run] of this.running) if (touches(run.scope, category)) this.running.delete(key);
  }

  private versionOf(scope: Scope): string {
    return scope === null ? String(this.changes) : `${this.changesIn.get(scope) ?? 0}:${this.unscopedChanges}`;
  }

  private keep(key: string, entry: Entry): void {
    this.entries.set(key, entry);
    if (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }
}
