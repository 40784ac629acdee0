import { describe, expect, it, vi } from "vitest";
import { BoardCache, parseSnapshot, sawCommit, type LoadedAnswer } from "./board-cache.js";

// The cache's own rules, with queries that finish when the test says (docs/decisions/035-job-board-cache.md,
// 038-board-answers-dropped-by-reach.md).

/** A change in these tests: the id of the task that changed. */
type Change = string;

/** A statement that saw every transaction before 100, and none from 100 on. */
const BEFORE_100 = "100:100:";

/** An answer whose reach is every change, unless told which task ids it shows. */
const loaded = (json: string, shows?: readonly string[], snapshot = BEFORE_100): LoadedAnswer<Change> => ({
  json,
  reach: (id) => !shows || shows.includes(id),
  snapshot: parseSnapshot(snapshot),
});

function controlledQuery(snapshot = BEFORE_100) {
  let finish: (answer: LoadedAnswer<Change>) => void = () => {};
  let calls = 0;
  const load = () => {
    calls++;
    return new Promise<LoadedAnswer<Change>>((resolve) => (finish = resolve));
  };
  return { load, finish: (json: string, shows?: readonly string[]) => finish(loaded(json, shows, snapshot)), calls: () => calls };
}

const cacheAt = (time: { now: number }, maxEntries = 10) => new BoardCache<Change>({ maxAgeMs: 10_000, maxEntries, now: () => time.now });

describe("snapshots", () => {
  it("reads PostgreSQL's text and says which commits a statement saw", () => {
    const s = parseSnapshot("100:105:101,103");
    expect(s).not.toBeNull();
    if (!s) return;
    expect([99n, 100n, 101n, 102n, 103n, 104n, 105n, 106n].map((x) => sawCommit(s, x))).toEqual([true, true, false, true, false, true, false, false]);
    expect(parseSnapshot("12:12:")).toEqual({ xmin: 12n, xmax: 12n, running: new Set() });
    expect(parseSnapshot("nonsense")).toBeNull();
    expect(parseSnapshot(null)).toBeNull();
  });
});

describe("BoardCache", () => {
  it("shares one running query among identical requests and keeps its answer", async () => {
    const cache = cacheAt({ now: 0 });
    const q = controlledQuery();
    const a = cache.answer("k", null, q.load);
    const b = cache.answer("k", null, q.load);
    q.finish("[1]");
    expect(await a).toBe(await b);
    expect((await cache.answer("k", null, q.load)).body.toString()).toBe("[1]");
    expect(q.calls()).toBe(1);
  });

  it("does not keep an answer that missed a commit heard while it ran, and asks again for a request that came after the commit", async () => {
    const cache = cacheAt({ now: 0 });
    const old = controlledQuery();
    const before = cache.answer("k", "pet", old.load);
    cache.changed("pet", "task-1", 100n);
    // A request after the change waits for the query from before it...
    const fresh = controlledQuery("101:101:");
    const after = cache.answer("k", "pet", fresh.load);
    old.finish("[old]");
    expect((await before).body.toString()).toBe("[old]");
    // ...which did not see the commit, so it asks again.
    await vi.waitFor(() => expect(fresh.calls()).toBe(1));
    fresh.finish("[new]");
    expect((await after).body.toString()).toBe("[new]");
    // The answer from before the change is not what is kept.
    const next = controlledQuery();
    expect((await cache.answer("k", "pet", next.load)).body.toString()).toBe("[new]");
    expect(next.calls()).toBe(0);
  });

  it("keeps an answer whose statement saw the commit it heard of while it ran, and shares it with requests after the notice", async () => {
    const cache = cacheAt({ now: 0 });
    const q = controlledQuery("101:101:");
    const before = cache.answer("k", null, q.load);
    cache.changed("pet", "task-1", 100n);
    const after = cache.answer("k", null, q.load);
    q.finish("[saw it]");
    expect(await after).toBe(await before);
    expect((await cache.answer("k", null, q.load)).body.toString()).toBe("[saw it]");
    expect(q.calls()).toBe(1);
  });

  it("keeps an answer across a change still inside its transaction, and drops it when the notice says the statement missed the commit", async () => {
    const cache = cacheAt({ now: 0 });
    const q = controlledQuery();
    const first = cache.answer("k", null, q.load);
    const inside = cache.changed("pet", "task-1", null);
    q.finish("[before]");
    await first;
    const again = controlledQuery();
    expect((await cache.answer("k", null, again.load)).body.toString()).toBe("[before]");
    // The commit: transaction 100, which the kept answer's statement did not see.
    inside.xid = 100n;
    cache.changed("pet", "task-1", 100n);
    void cache.answer("k", null, again.load);
    expect(again.calls()).toBe(1);
  });

  it("asks again for a request made after a change still inside its transaction when it joined a query from before the change", async () => {
    const cache = cacheAt({ now: 0 });
    const old = controlledQuery();
    const before = cache.answer("k", null, old.load);
    cache.changed("pet", "task-1", null);
    const fresh = controlledQuery();
    const after = cache.answer("k", null, fresh.load);
    old.finish("[old]");
    await before;
    await vi.waitFor(() => expect(fresh.calls()).toBe(1));
    fresh.finish("[new]");
    expect((await after).body.toString()).toBe("[new]");
  });

  it("shares and keeps a query across a change that cannot reach its answer", async () => {
    const cache = cacheAt({ now: 0 });
    const q = controlledQuery();
    const before = cache.answer("k", null, q.load);
    cache.changed("pet", "task-9", 100n);
    const after = cache.answer("k", null, q.load);
    q.finish("[shown]", ["task-1"]);
    expect(await before).toBe(await after);
    expect((await cache.answer("k", null, q.load)).body.toString()).toBe("[shown]");
    expect(q.calls()).toBe(1);
  });

  it("keeps nothing from a query that ran across a change when no later query replaced it", async () => {
    const cache = cacheAt({ now: 0 });
    const old = controlledQuery();
    const before = cache.answer("k", null, old.load);
    cache.changed("errands", "task-1", 100n);
    old.finish("[old]");
    await before;
    const next = controlledQuery();
    void cache.answer("k", null, next.load);
    expect(next.calls()).toBe(1);
  });

  it("keeps an answer across a change in another category, and drops every-category answers for any change", async () => {
    const cache = cacheAt({ now: 0 });
    for (const [key, scope] of [["pets", "pet"], ["errands", "errands"], ["all", null]] as const) {
      await cache.answer(key, scope, async () => loaded(key));
    }
    cache.changed("pet", "task-1", 100n);
    const again = controlledQuery();
    void cache.answer("errands", "errands", again.load);
    expect(again.calls()).toBe(0);
    void cache.answer("pets", "pet", again.load);
    void cache.answer("all", null, again.load);
    expect(again.calls()).toBe(2);
  });

  it("keeps an answer the change cannot reach or whose statement saw it, and drops one it can", async () => {
    const cache = cacheAt({ now: 0 });
    await cache.answer("a", null, async () => loaded("a", ["task-1"]));
    await cache.answer("b", null, async () => loaded("b", ["task-2"]));
    await cache.answer("c", null, async () => loaded("c", ["task-2"], "101:101:"));
    cache.changed("pet", "task-2", 100n);
    const q = controlledQuery();
    void cache.answer("a", null, q.load);
    void cache.answer("c", null, q.load);
    expect(q.calls()).toBe(0);
    void cache.answer("b", null, q.load);
    expect(q.calls()).toBe(1);
  });

  it("drops every answer of the category for a change nothing is known of", async () => {
    const cache = cacheAt({ now: 0 });
    await cache.answer("a", "pet", async () => loaded("a", [], "101:101:"));
    cache.changed("pet", null, 100n);
    const q = controlledQuery();
    void cache.answer("a", "pet", q.load);
    expect(q.calls()).toBe(1);
  });

  it("drops everything for a change of unknown category", async () => {
    const cache = cacheAt({ now: 0 });
    await cache.answer("errands", "errands", async () => loaded("e"));
    cache.changed(null, null, null);
    const q = controlledQuery();
    void cache.answer("errands", "errands", q.load);
    expect(q.calls()).toBe(1);
  });

  it("asks again once an answer is 10 seconds old", async () => {
    const time = { now: 0 };
    const cache = cacheAt(time);
    await cache.answer("k", null, async () => loaded("old"));
    time.now = 9_999;
    expect((await cache.answer("k", null, async () => loaded("new"))).body.toString()).toBe("old");
    time.now = 10_000;
    expect((await cache.answer("k", null, async () => loaded("new"))).body.toString()).toBe("new");
  });

  it("forgets the least recently used answer beyond its size", async () => {
    const cache = cacheAt({ now: 0 }, 2);
    await cache.answer("a", null, async () => loaded("a"));
    await cache.answer("b", null, async () => loaded("b"));
    await cache.answer("a", null, async () => loaded("a2"));
    await cache.answer("c", null, async () => loaded("c"));
    expect((await cache.answer("a", null, async () => loaded("a3"))).body.toString()).toBe("a");
    expect((await cache.answer("b", null, async () => loaded("b2"))).body.toString()).toBe("b2");
  });

  it("gives equal bytes equal ETags and a failed query no answer to keep", async () => {
    const cache = cacheAt({ now: 0 });
    const x = await cache.answer("x", null, async () => loaded("[]"));
    const y = await cache.answer("y", null, async () => loaded("[]"));
    expect(x.etag).toBe(y.etag);
    await expect(cache.answer("z", null, () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect((await cache.answer("z", null, async () => loaded("up"))).body.toString()).toBe("up");
  });
});
