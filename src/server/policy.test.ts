import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ADMIN_READ_ONLY_MESSAGE } from "./features/chat/repository.js";
import { updateByTransition } from "./features/tasks/transition-statements.js";
import { users } from "./db/schema/users.js";
import { adminNeedsSecondFactor, isAdminSession, isMultiFactor, viewerOf } from "./policy.js";
import { call, createUser, useTestApp, type TestUser } from "../../test/create-test-app.js";
import { askQuestion, createProvider, postRequestTask, postTask, taskAt } from "../../test/fixtures/factory.js";

// Admin powers need the admin role and a two-factor session (docs/decisions/068-admin-powers-need-two-factors.md).
// The rule itself, and the answers where an admin on one factor gets the same status as an admin
// but must be given no more than anyone else: the authorization matrix compares statuses, these
// compare what the answer carries. Each failed before the policy existed.

const t = await useTestApp();

const ADMIN_ID = "00000000-0000-4000-8000-000000000001";
const as = (role: "admin" | "user", firstFactor: string | null, secondFactor: string | null = null) => ({ id: ADMIN_ID, role, firstFactor, secondFactor });

describe("the rule", () => {
  it("counts a password and a factor, or a passkey alone, as two factors", () => {
    expect(isMultiFactor({ firstFactor: "password", secondFactor: "totp" })).toBe(true);
    expect(isMultiFactor({ firstFactor: "email_link", secondFactor: "recovery_code" })).toBe(true);
    expect(isMultiFactor({ firstFactor: "passkey" })).toBe(true);
    for (const firstFactor of ["password", "oidc", "email_link", null]) expect(isMultiFactor({ firstFactor, secondFactor: null }), String(firstFactor)).toBe(false);
  });

  it("gives admin powers to the admin role on two factors only, and says when a second factor is missing", () => {
    expect(isAdminSession(as("admin", "password", "totp"))).toBe(true);
    expect(isAdminSession(as("admin", "passkey"))).toBe(true);
    expect(isAdminSession(as("admin", "password"))).toBe(false);
    expect(isAdminSession(as("user", "password", "totp"))).toBe(false);
    expect(isAdminSession(null)).toBe(false);
    expect(adminNeedsSecondFactor(as("admin", "password"))).toBe(true);
    expect(adminNeedsSecondFactor(as("admin", "password", "totp"))).toBe(false);
    expect(adminNeedsSecondFactor(as("user", "password"))).toBe(false);
    expect(viewerOf(as("admin", "oidc"))).toEqual({ id: ADMIN_ID, admin: false });
  });
});

const oneFactorAdmin = () => createUser(t, { role: "admin", secondFactor: false });

describe("an admin on one factor", () => {
  it("is told by the current-user answer that admin powers wait for a second factor", async () => {
    const expectations: [TestUser, { isAdmin: boolean; adminNeedsSecondFactor: boolean }][] = [
      [await oneFactorAdmin(), { isAdmin: false, adminNeedsSecondFactor: true }],
      [await createUser(t, { role: "admin" }), { isAdmin: true, adminNeedsSecondFactor: false }],
      [await createUser(t), { isAdmin: false, adminNeedsSecondFactor: false }],
    ];
    for (const [person, expected] of expectations) {
      const res = await call(t, person, { method: "GET", url: "/api/auth/user" });
      expect(res.statusCode).toBe(200);
      expect(res.json(), person.email).toMatchObject({ id: person.id, ...expected });
    }
  });

  it("does not see the questions a poster hid", async () => {
    const { task, poster } = await taskAt(t, "open");
    const questionId = await askQuestion(t, await createProvider(t), task.id);
    expect((await call(t, poster, { method: "POST", url: `/api/tasks/${task.id}/questions/${questionId}/hide` })).statusCode).toBe(200);
    const listed = async (who: TestUser) => (await call(t, who, { method: "GET", url: `/api/tasks/${task.id}/questions` })).json<{ questions: { id: string }[] }>().questions.map((q) => q.id);
    expect(await listed(await oneFactorAdmin())).toEqual([]);
    expect(await listed(await createUser(t, { role: "admin" }))).toEqual([questionId]);
  });

  it("does not find a task requested from one provider, as a stranger does not", async () => {
    const poster = await createUser(t);
    const task = await postRequestTask(t, poster, await createProvider(t));
    expect((await call(t, await oneFactorAdmin(), { method: "GET", url: `/api/tasks/${task.id}` })).statusCode).toBe(404);
    expect((await call(t, await createUser(t, { role: "admin" }), { method: "GET", url: `/api/tasks/${task.id}` })).statusCode).toBe(200);
  });

  it("does not ask Felix about a task no longer open", async () => {
    const { task } = await taskAt(t, "claimed");
    const ask = async (who: TestUser) =>
      (await call(t, who, { method: "POST", url: "/api/ask-felix", payload: { message: "Please evaluate this task's budget.", context: { taskId: task.id }, mode: "evaluate" } })).statusCode;
    expect(await ask(await oneFactorAdmin())).toBe(404);
    expect(await ask(await createUser(t, { role: "admin" }))).toBe(200);
  });

  it("writes in the chat of a task they posted, as its poster, where an admin only reads", async () => {
    const admin = await oneFactorAdmin();
    const { task } = await taskAt(t, "claimed", { poster: admin });
    const write = (who: TestUser) => call(t, who, { method: "POST", url: "/api/messages", payload: { taskId: task.id, content: "The gate code is 4321" } });
    expect((await write(admin)).statusCode).toBe(201);
    // With a second factor the same person moderates: they read the chat and never write in it (decision 010).
    const secondFactorAdmin = await createUser(t, { role: "admin" });
    const { task: moderated } = await taskAt(t, "claimed", { poster: secondFactorAdmin });
    const refused = await call(t, secondFactorAdmin, { method: "POST", url: "/api/messages", payload: { taskId: moderated.id, content: "Hello" } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: ADMIN_READ_ONLY_MESSAGE });
  });

  it("is no admin to the task table's admin rows, in its conditional UPDATE too", async () => {
    const sessionOf = async (who: TestUser, secondFactor: "totp" | null) => {
      const [row] = await t.database.db.select().from(users).where(eq(users.id, who.id));
      if (!row) throw new Error("user vanished");
      return { ...row, sessionId: "", firstFactor: "password", secondFactor, provenAt: null };
    };
    const task = await postTask(t, await createUser(t));
    const remove = async (who: TestUser, secondFactor: "totp" | null) =>
      updateByTransition(t.app.ctx, "remove", task.id, { kind: "person", user: await sessionOf(who, secondFactor) }, t.clock.now());
    expect(await remove(await oneFactorAdmin(), null)).toBeNull();
    expect((await remove(await createUser(t, { role: "admin" }), "totp"))?.status).toBe("cancelled");
  });
});
