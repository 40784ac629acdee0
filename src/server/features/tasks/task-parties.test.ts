import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { taskAt } from "../../../../test/fixtures/factory.js";

// Who sees whose name on a task (docs/product.md, "People you can see"): strangers get the display
// name ("Maria G."), the profile id and photo; the poster, the assigned provider and admins also get
// the full names.

const t = await useTestApp();

async function scene() {
  const posterLast = `Posterlast${randomUUID().slice(0, 6)}`;
  const providerLast = `Providerlast${randomUUID().slice(0, 6)}`;
  const poster = await createUser(t, { firstName: "Maria", lastName: posterLast });
  const provider = await createUser(t, { verifiedProvider: true, firstName: "Devon", lastName: providerLast });
  const fixture = await taskAt(t, "claimed", { poster, provider, body: { title: `Parties ${randomUUID()}` } });
  return { ...fixture, posterLast, providerLast };
}

const detail = (viewer: TestUser | null, id: string) => call(t, viewer, { url: `/api/tasks/${id}` });

describe("names on tasks", () => {
  it("the job board shows the poster's display name and profile id only, to everyone", async () => {
    const posterLast = `Boardlast${randomUUID().slice(0, 6)}`;
    const poster = await createUser(t, { firstName: "Maria", lastName: posterLast });
    // Letters only: a run of digits in a title can read as a phone number and be masked (decision 070).
    const title = `Board ${randomUUID().replace(/[^a-f]/g, "")}`;
    await taskAt(t, "open", { poster, body: { title } });
    for (const viewer of [null, poster, await createUser(t, { verifiedProvider: true })]) {
      const res = await call(t, viewer, { url: `/api/tasks/open?search=${encodeURIComponent(title)}` });
      expect(res.statusCode).toBe(200);
      const [card] = res.json<{ poster: Record<string, unknown> }[]>();
      expect(card?.poster).toEqual({ id: poster.id, displayName: `Maria ${posterLast.charAt(0)}.`, photoUrl: null, rating: null, reviewCount: 0 });
      expect(res.body).not.toContain(posterLast);
      expect(res.body).not.toContain(poster.email);
    }
  });

  it("a task's detail: display names for strangers, full names for the poster, the assigned provider and admins", async () => {
    const { task, poster, provider, posterLast, providerLast } = await scene();
    const stranger = await createUser(t);
    const otherProvider = await createUser(t, { verifiedProvider: true });
    const admin = await createUser(t, { role: "admin" });

    for (const viewer of [null, stranger, otherProvider]) {
      const res = await detail(viewer, task.id);
      expect(res.statusCode).toBe(200);
      const body = res.json<{ visibility: string; poster: Record<string, unknown>; provider: Record<string, unknown> }>();
      expect(body.visibility).toBe("public");
      expect(body.poster).toEqual({ id: poster.id, displayName: `Maria ${posterLast.charAt(0)}.`, photoUrl: null, rating: null, reviewCount: 0 });
      expect(body.provider).toMatchObject({ id: provider.id, displayName: `Devon ${providerLast.charAt(0)}.` });
      expect(body.provider).not.toHaveProperty("lastName");
      for (const secret of [posterLast, providerLast, poster.email, provider.email]) expect(res.body).not.toContain(secret);
    }

    for (const viewer of [poster, provider, admin]) {
      const res = await detail(viewer, task.id);
      const body = res.json<{ visibility: string; poster: Record<string, unknown>; provider: Record<string, unknown> }>();
      expect(body.visibility).toBe("private");
      expect(body.poster).toMatchObject({ id: poster.id, displayName: `Maria ${posterLast.charAt(0)}.`, firstName: "Maria", lastName: posterLast });
      expect(body.provider).toMatchObject({ id: provider.id, firstName: "Devon", lastName: providerLast });
    }
  });

  it("a provider released by an expired payment window is a stranger again", async () => {
    const posterLast = `Expiredlast${randomUUID().slice(0, 6)}`;
    const poster = await createUser(t, { firstName: "Maria", lastName: posterLast });
    const { task, provider } = await taskAt(t, "payment_expired", { poster });
    const res = await detail(provider, task.id);
    expect(res.json<{ visibility: string }>().visibility).toBe("public");
    expect(res.body).not.toContain(posterLast);
  });

  it("the poster's own lists carry the full names", async () => {
    const { poster, provider, posterLast, providerLast } = await scene();
    const mine = await call(t, poster, { url: "/api/tasks/my-tasks" });
    expect(mine.json<{ poster: { lastName: string }; provider: { lastName: string } }[]>()[0]).toMatchObject({
      poster: { lastName: posterLast },
      provider: { lastName: providerLast },
    });
    const jobs = await call(t, provider, { url: "/api/tasks/my-jobs" });
    expect(jobs.json<{ poster: { lastName: string } }[]>()[0]).toMatchObject({ poster: { lastName: posterLast } });
  });
});
