import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import type { BoardTask } from "../../../shared/tasks.js";
import { buildApp } from "../../app.js";
import { openDatabase, queryRows } from "../../db/client.js";
import { sessions, users } from "../../db/schema/users.js";
import { parseTaskUpdate, TASK_UPDATES_CHANNEL } from "../../task-updates.js";
import { parseSnapshot, sawCommit } from "./board-cache.js";
import { call, createUser, openTestDatabase, TestClock, type TestApp } from "../../../../test/create-test-app.js";
import { createProvider, postTask, transition } from "../../../../test/fixtures/factory.js";
import { parseEnv } from "../../config/env.js";

// The job board's answers kept between changes (docs/decisions/035-job-board-cache.md): identical
// requests share one query, an answer is kept until a change it may show is heard (this
// instance's own at once, another instance's through LISTEN), at most 10 s, and a board that has
// not changed costs a 304. The board does not look up the visitor's session: it is the same for
// everyone.

const { database, url, drop } = await openTestDatabase();
const second = await openDatabase({ databaseUrl: url, poolSize: 5 });
const clock = new TestClock();
const env = parseEnv({ NODE_ENV: "test", LOG_LEVEL: "silent", PUBLIC_URL: "http://localhost:3000", SEED_DEMO: "false", DATA_DIR: `/tmp/errandly-test-${randomUUID()}` });
const appA = await buildApp({ env, database, now: clock.now, logger: false });
const appB = await buildApp({ env, database: second, now: clock.now, logger: false });
const noop = async () => undefined;
/** Instance A; B shares its database and clock. */
const t: TestApp = { app: appA, clock, database, env, close: noop };
const tB: TestApp = { ...t, app: appB, database: second };
afterAll(async () => {
  await appA.close();
  await appB.close();
  await database.close();
  await second.close();
  await drop();
});

const poster = await createUser(t, { firstName: "Nadia", lastName: "Okafor" });
const provider = await createProvider(t);
const post = async (title: string, category: BoardTask["category"]) => {
  clock.advance(60_000);
  return postTask(t, poster, { body: { title, category } });
};
const books = await post("Return library books", "errands");
const cat = await post("Feed the cat", "pet");

const board = async (query = "", on: TestApp = t, headers: Record<string, string> = {}) => {
  const res = await call(on, null, { url: `/api/tasks/open${query}`, headers });
  return { res, tasks: res.statusCode === 200 ? res.json<BoardTask[]>() : [] };
};
const ids = (list: BoardTask[]) => list.map((x) => x.id);
/** The poster's name as stored, changed behind the app's back: no notice is sent for it. */
const rename = (firstName: string) => database.db.update(users).set({ firstName }).where(eq(users.id, poster.id));
const posterName = (list: BoardTask[]) => list[0]?.poster.displayName;

/** `heard` resolves once `on`'s database has heard the next task notice (its own listeners, the cache's among them, ran first). */
async function listenOn(on: TestApp): Promise<{ heard: Promise<void> }> {
  let hear = () => {};
  const heard = new Promise<void>((resolve) => (hear = resolve));
  const unlisten = await on.database.listen(TASK_UPDATES_CHANNEL, () => hear());
  return { heard: heard.finally(unlisten) };
}

describe("GET /api/tasks/open under concurrent requests", () => {
  it("answers identical concurrent requests with the same JSON, typed as JSON", async () => {
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => call(t, i % 2 === 0 ? null : poster, { url: "/api/tasks/open?pageSize=30" })));
    for (const res of replies) {
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(res.body).toBe(replies[0]?.body);
    }
    expect(ids(replies[0]?.json() ?? [])).toEqual([cat.id, books.id]);
  });

  it("gives different queries at the same moment their own answers (a map area is part of the key)", async () => {
    const [pets, errands, none, farAway] = await Promise.all(
      ["?category=pet", "?category=errands", "?search=nothing-like-this", "?bbox=10,10,11,11"].map(async (q) => (await board(q)).tasks),
    );
    expect(ids(pets ?? [])).toEqual([cat.id]);
    expect(ids(errands ?? [])).toEqual([books.id]);
    expect(none).toEqual([]);
    expect(farAway).toEqual([]);
  });

  it("does not look up the session of a signed-in visitor (the answer is the same for everyone)", async () => {
    const lastSeen = async () => {
      const [row] = await database.db.select({ at: sessions.lastSeenAt }).from(sessions).where(eq(sessions.userId, poster.id));
      return row?.at.getTime();
    };
    const seen = await lastSeen();
    // Past the hour after which any session lookup extends the session (auth/sessions.ts).
    clock.advance(2 * 3_600_000);
    const signedIn = await call(t, poster, { url: "/api/tasks/open" });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.body).toBe((await board()).res.body);
    expect(await lastSeen()).toBe(seen);
    // A route that needs the user does look it up, so the assertion above can fail.
    expect((await call(t, poster, { url: "/api/tasks/my-tasks" })).statusCode).toBe(200);
    expect(await lastSeen()).toBe(clock.now().getTime());
  });
});

describe("GET /api/tasks/open between changes", () => {
  it("keeps an answer for 10 seconds when nothing it shows was announced", async () => {
    clock.advance(60_000);
    expect(posterName((await board()).tasks)).toBe("Nadia O.");
    await rename("Nadine");
    clock.advance(9_999);
    expect(posterName((await board()).tasks)).toBe("Nadia O.");
    clock.advance(1);
    expect(posterName((await board()).tasks)).toBe("Nadine O.");
    await rename("Nadia");
  });

  it("answers a task posted here at once, and another instance as soon as it hears of it", async () => {
    clock.advance(60_000);
    // Both instances keep an answer from before the post.
    await board();
    await board("", tB);
    const { heard } = await listenOn(tB);
    // Without moving the clock: the kept answers are not old.
    const plants = await postTask(t, poster, { body: { title: "Water the plants", category: "errands" } });
    expect((await board()).tasks[0]?.id).toBe(plants.id);
    await heard;
    expect((await board("", tB)).tasks[0]?.id).toBe(plants.id);
  });

  it("drops a claimed task from the answer at once for the one who claimed", async () => {
    const parcel = await post("Carry a parcel", "delivery");
    expect(ids((await board()).tasks)).toContain(parcel.id);
    expect(await transition(t, "claim", parcel.id, provider)).not.toBeNull();
    expect(ids((await board()).tasks)).not.toContain(parcel.id);
  });

  it("keeps answers a post cannot reach (a search it does not match, a first page of dearer tasks); another instance judges the search without the text", async () => {
    clock.advance(60_000);
    await postTask(t, poster, { body: { title: "Fetch groceries", category: "errands" }, budgetCents: 40_000 });
    for (const on of [t, tB]) {
      expect(posterName((await board("?search=groceries", on)).tasks)).toBe("Nadia O.");
      expect(posterName((await board("?sort=budget_desc&pageSize=1", on)).tasks)).toBe("Nadia O.");
      expect(posterName((await board("", on)).tasks)).toBe("Nadia O.");
    }
    await rename("Nadine");
    const { heard } = await listenOn(tB);
    await postTask(t, poster, { body: { title: "Walk the dog", category: "pet" }, budgetCents: 3_000 });
    await heard;
    // Here: neither can show the dog walk, so both are kept; the newest page shows it.
    expect(posterName((await board("?search=groceries")).tasks)).toBe("Nadia O.");
    expect(posterName((await board("?sort=budget_desc&pageSize=1")).tasks)).toBe("Nadia O.");
    expect(posterName((await board()).tasks)).toBe("Nadine O.");
    // There: the notice carries the budget and the time but not the text, so the search is asked again.
    expect(posterName((await board("?search=groceries", tB)).tasks)).toBe("Nadine O.");
    expect(posterName((await board("?sort=budget_desc&pageSize=1", tB)).tasks)).toBe("Nadia O.");
    expect(posterName((await board("", tB)).tasks)).toBe("Nadine O.");
    await rename("Nadia");
    clock.advance(10_000);
  });

  it("names the committing transaction in its notice: a statement begun after the commit saw it, one begun before did not", async () => {
    const snapshot = async () => parseSnapshot((await queryRows<{ s: string }>(database.db, sql`select pg_current_snapshot()::text as s`))[0]?.s);
    const before = await snapshot();
    let hear: (payload: string) => void = () => {};
    const heard = new Promise<string>((resolve) => (hear = resolve));
    const unlisten = await database.listen(TASK_UPDATES_CHANNEL, (payload) => hear(payload));
    await post("Post a parcel", "delivery");
    const xid = parseTaskUpdate(await heard)?.xid;
    await unlisten();
    const after = await snapshot();
    expect(xid).toMatch(/^\d+$/);
    if (!before || !after || !xid) throw new Error("no snapshot or xid");
    expect(sawCommit(before, BigInt(xid))).toBe(false);
    expect(sawCommit(after, BigInt(xid))).toBe(true);
  });

  it("keeps answers of other categories when a task is posted in one", async () => {
    clock.advance(60_000);
    expect(posterName((await board("?category=pet")).tasks)).toBe("Nadia O.");
    expect(posterName((await board("?category=errands")).tasks)).toBe("Nadia O.");
    expect(posterName((await board()).tasks)).toBe("Nadia O.");
    await rename("Nadine");
    await postTask(t, poster, { body: { title: "Walk the dog", category: "pet" } });
    // Pet and every-category answers were dropped and asked again; errands was kept.
    expect(posterName((await board("?category=pet")).tasks)).toBe("Nadine O.");
    expect(posterName((await board()).tasks)).toBe("Nadine O.");
    expect(posterName((await board("?category=errands")).tasks)).toBe("Nadia O.");
    await rename("Nadia");
    clock.advance(10_000);
  });
});

describe("ETag and 304", () => {
  it("answers If-None-Match with the current ETag by 304 and no body, and a changed board by 200", async () => {
    clock.advance(60_000);
    const first = await board("?category=errands");
    const etag = first.res.headers.etag;
    expect(typeof etag).toBe("string");
    expect(first.res.headers["cache-control"]).toBe("no-cache");
    const again = await board("?category=errands", t, { "if-none-match": String(etag) });
    expect(again.res.statusCode).toBe(304);
    expect(again.res.body).toBe("");
    // The same bytes on the other instance have the same ETag.
    expect((await board("?category=errands", tB, { "if-none-match": String(etag) })).res.statusCode).toBe(304);
    await post("Post a letter", "errands");
    const changed = await board("?category=errands", t, { "if-none-match": String(etag) });
    expect(changed.res.statusCode).toBe(200);
    expect(changed.res.headers.etag).not.toBe(etag);
    expect(changed.tasks[0]?.title).toBe("Post a letter");
  });
});
