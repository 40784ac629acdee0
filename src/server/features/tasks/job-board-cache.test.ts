import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { CreateTaskBody, TaskPrivate, TaskPublic } from "../../../shared/tasks.js";
import { sessions } from "../../db/schema/users.js";
import { call, createUser, useTestApp } from "../../../../test/create-test-app.js";

// The job board under load (docs/benchmarks.md, "Mixed load"): identical requests that arrive
// together share one query and one serialization, nothing outlives the answer, and the board does
// not look up the visitor's session because it is the same for everyone.

const body: CreateTaskBody = {
  title: "Return library books",
  description: "Three books, due today",
  category: "errands",
  budget: 22,
  urgency: "standard",
  location: "1 Church Circle",
  city: "Annapolis",
  state: "MD",
};

const t = await useTestApp();
const poster = await createUser(t);
const post = async (title: string, category: CreateTaskBody["category"]) => {
  t.clock.advance(60_000);
  const res = await call(t, poster, { method: "POST", url: "/api/tasks", payload: { ...body, title, category } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as TaskPrivate;
};
const books = await post("Return library books", "errands");
const cat = await post("Feed the cat", "pet");

describe("GET /api/tasks/open under concurrent requests", () => {
  it("answers identical concurrent requests with the same JSON, typed as JSON", async () => {
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => call(t, i % 2 === 0 ? null : poster, { url: "/api/tasks/open?pageSize=30" })));
    for (const res of replies) {
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(res.body).toBe(replies[0]?.body);
    }
    expect((replies[0]?.json() as TaskPublic[]).map((x) => x.id)).toEqual([cat.id, books.id]);
  });

  it("gives different queries at the same moment their own answers", async () => {
    const [pets, errands, none] = await Promise.all(
      ["?category=pet", "?category=errands", "?search=nothing-like-this"].map((q) => call(t, null, { url: `/api/tasks/open${q}` })),
    );
    expect((pets?.json() as TaskPublic[]).map((x) => x.id)).toEqual([cat.id]);
    expect((errands?.json() as TaskPublic[]).map((x) => x.id)).toEqual([books.id]);
    expect(none?.json()).toEqual([]);
  });

  it("keeps nothing once answered: a task posted after an answer is in the next one", async () => {
    const before = await call(t, null, { url: "/api/tasks/open" });
    const plants = await post("Water the plants", "errands");
    const after = await call(t, null, { url: "/api/tasks/open" });
    expect((before.json() as TaskPublic[]).map((x) => x.id)).not.toContain(plants.id);
    expect((after.json() as TaskPublic[])[0]?.id).toBe(plants.id);
  });

  it("does not look up the session of a signed-in visitor (the answer is the same for everyone)", async () => {
    const lastSeen = async () => {
      const [row] = await t.database.db.select({ at: sessions.lastSeenAt }).from(sessions).where(eq(sessions.userId, poster.id));
      return row?.at.getTime();
    };
    const seen = await lastSeen();
    // Past the hour after which any session lookup extends the session (auth/sessions.ts).
    t.clock.advance(2 * 3_600_000);
    const board = await call(t, poster, { url: "/api/tasks/open" });
    expect(board.statusCode).toBe(200);
    expect(board.body).toBe((await call(t, null, { url: "/api/tasks/open" })).body);
    expect(await lastSeen()).toBe(seen);
    // A route that needs the user does look it up, so the assertion above can fail.
    expect((await call(t, poster, { url: "/api/tasks/my-tasks" })).statusCode).toBe(200);
    expect(await lastSeen()).toBe(t.clock.now().getTime());
  });
});
