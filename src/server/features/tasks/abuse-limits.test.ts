import { describe, expect, it } from "vitest";
import { MAX_UNPAID_CLAIMS } from "../../../shared/constants.js";
import { call, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { BASE_BODY, createPoster, createProvider, pay, postTask } from "../../../../test/fixtures/factory.js";
import { TOO_MANY_UNPAID_CLAIMS } from "./service.js";

// One account cannot flood the job board with posts, nor tie it up with claims nobody pays for.
const t = await useTestApp();
const HOUR = 3_600_000;
const MAX_TASKS_PER_HOUR = t.env.TASKS_PER_HOUR;

const body = BASE_BODY;
const claim = (taskId: string, provider: TestUser) => call(t, provider, { method: "PATCH", url: `/api/tasks/${taskId}/claim` });

describe("posting limit", () => {
  it(`refuses the ${MAX_TASKS_PER_HOUR + 1}th task in an hour with 429 and says when to try again, and stores nothing`, async () => {
    const poster = await createPoster(t);
    for (let i = 0; i < MAX_TASKS_PER_HOUR; i++) await postTask(t, poster);
    const refused = await call(t, poster, { method: "POST", url: "/api/tasks", payload: body });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(`You have posted ${MAX_TASKS_PER_HOUR} tasks in the last hour. You can post another in 60 minutes.`);
    const mine = await call(t, poster, { url: "/api/tasks/my-tasks" });
    expect(mine.json()).toHaveLength(MAX_TASKS_PER_HOUR);
    // Someone else posts as usual, and an hour later so does this poster.
    expect((await call(t, await createPoster(t), { method: "POST", url: "/api/tasks", payload: body })).statusCode).toBe(201);
    t.clock.advance(HOUR);
    expect((await call(t, poster, { method: "POST", url: "/api/tasks", payload: body })).statusCode).toBe(201);
  });
});

describe("unpaid claims", () => {
  it(`lets a provider hold at most ${MAX_UNPAID_CLAIMS} claimed, unpaid tasks, even when the claims race`, async () => {
    const provider = await createProvider(t);
    const poster = await createPoster(t);
    const held = [];
    for (let i = 0; i < MAX_UNPAID_CLAIMS - 1; i++) {
      const task = await postTask(t, poster);
      expect((await claim(task.id, provider)).statusCode).toBe(200);
      held.push(task);
    }
    // Four claims at once with one place left: exactly one wins.
    const racing = await Promise.all(Array.from({ length: 4 }, () => postTask(t, poster)));
    const answers = await Promise.all(racing.map((task) => claim(task.id, provider)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.statusCode === 409)) expect(refused.json()).toEqual({ message: TOO_MANY_UNPAID_CLAIMS });

    // Once the poster pays one, the provider may claim another.
    const first = held[0];
    if (!first) throw new Error("no task");
    await pay(t, poster, first);
    const next = racing.find((_, i) => answers[i]?.statusCode === 409);
    if (!next) throw new Error("no refused task");
    expect((await claim(next.id, provider)).statusCode).toBe(200);
    // Other providers are not affected.
    expect((await claim((await postTask(t, poster)).id, await createProvider(t))).statusCode).toBe(200);
  });
});
