import { describe, expect, it } from "vitest";
import { BoardCache } from "./board-cache.js";

// The cache's own rules, with queries that finish when the test says (docs/decisions/035-job-board-cache.md).

function controlledQuery() {
  let finish: (json: string) => void = () => {};
  let calls = 0;
  const load = () => {
    calls++;
    return new Promise<string>((resolve) => (finish = resolve));
  };
  return { load, finish: (json: string) => finish(json), calls: () => calls };
}

const cacheAt = (time: { now: number }, maxEntries = 10) => new BoardCache({ maxAgeMs: 10_000, maxEntries, now: () => time.now });

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

  it("does not keep an answer whose query ran across a change it may show", async () => {
    const cache = cacheAt({ now: 0 });
    const old = controlledQuery();
    const before = cache.answer("k", "pet", old.load);
    cache.changed("pet");
    // A request after the change does not join the query from before it...
    const fresh = controlledQuery();
    const after = cache.answer("k", "pet", fresh.load);
    expect(fresh.calls()).toBe(1);
    old.finish("[old]");
    expect((await before).body.toString()).toBe("[old]");
    fresh.finish("[new]");
    expect((await after).body.toString()).toBe("[new]");
    // ...and the answer from before it is not what is kept.
    const next = controlledQuery();
    expect((await cache.answer("k", "pet", next.load)).body.toString()).toBe("[new]");
    expect(next.calls()).toBe(0);
  });

  it("keeps nothing from a query that ran across a change when no later query replaced it", async () => {
    const cache = cacheAt({ now: 0 });
    const old = controlledQuery();
    const before = cache.answer("k", null, old.load);
    cache.changed("errands");
    old.finish("[old]");
    await before;
    const next = controlledQuery();
    void cache.answer("k", null, next.load);
    expect(next.calls()).toBe(1);
  });

  it("keeps an answer across a change in another category, and drops every-category answers for any change", async () => {
    const cache = cacheAt({ now: 0 });
    for (const [key, scope] of [["pets", "pet"], ["errands", "errands"], ["all", null]] as const) {
      await cache.answer(key, scope, async () => key);
    }
    cache.changed("pet");
    const again = controlledQuery();
    void cache.answer("errands", "errands", again.load);
    expect(again.calls()).toBe(0);
    void cache.answer("pets", "pet", again.load);
    void cache.answer("all", null, again.load);
    expect(again.calls()).toBe(2);
  });

  it("drops everything for a change of unknown category", async () => {
    const cache = cacheAt({ now: 0 });
    await cache.answer("errands", "errands", async () => "e");
    cache.changed(null);
    const q = controlledQuery();
    void cache.answer("errands", "errands", q.load);
    expect(q.calls()).toBe(1);
  });

  it("asks again once an answer is 10 seconds old", async () => {
    const time = { now: 0 };
    const cache = cacheAt(time);
    await cache.answer("k", null, async () => "old");
    time.now = 9_999;
    expect((await cache.answer("k", null, async () => "new")).body.toString()).toBe("old");
    time.now = 10_000;
    expect((await cache.answer("k", null, async () => "new")).body.toString()).toBe("new");
  });

  it("forgets the least recently used answer beyond its size", async () => {
    const cache = cacheAt({ now: 0 }, 2);
    await cache.answer("a", null, async () => "a");
    await cache.answer("b", null, async () => "b");
    await cache.answer("a", null, async () => "a2");
    await cache.answer("c", null, async () => "c");
    expect((await cache.answer("a", null, async () => "a3")).body.toString()).toBe("a");
    expect((await cache.answer("b", null, async () => "b2")).body.toString()).toBe("b2");
  });

  it("gives equal bytes equal ETags and a failed query no answer to keep", async () => {
    const cache = cacheAt({ now: 0 });
    const x = await cache.answer("x", null, async () => "[]");
    const y = await cache.answer("y", null, async () => "[]");
    expect(x.etag).toBe(y.etag);
    await expect(cache.answer("z", null, () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect((await cache.answer("z", null, async () => "up")).body.toString()).toBe("up");
  });
});
