import { eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { taskAt } from "../../../../test/fixtures/factory.js";
import { tinyPng } from "../../../../test/fixtures/test-files.js";
import { DISPUTE_PHOTO_LIMIT_MESSAGE, type TaskDisputeAnswer } from "../../../shared/disputes.js";
import { createStorage } from "../../adapters/storage/create-storage.js";
import { disputePhotos } from "../../db/schema/payments.js";

// Photos on a dispute's messages (docs/decisions/057-disputes-guarantee-late-cancellation.md):
// evidence that only the task's two parties and admins can see (docs/security.md).

const t = await useTestApp();
const storage = await createStorage(t.env);

/** The signed single-use flow for a dispute photo: an upload URL, then the PUT of the bytes. */
async function upload(user: TestUser, kind = "dispute_photo", bytes: Buffer = tinyPng()): Promise<string> {
  const link = await call(t, user, { method: "POST", url: "/api/objects/upload", payload: { kind } });
  expect(link.statusCode, link.body).toBe(200);
  const uploadURL = link.json<{ uploadURL: string }>().uploadURL;
  const put = await call(t, user, { method: "PUT", url: uploadURL, payload: bytes, headers: { "content-type": "application/octet-stream" } });
  expect(put.statusCode, put.body).toBe(200);
  return uploadURL;
}

const report = (who: TestUser, taskId: string, photoURLs: string[]) =>
  call(t, who, { method: "POST", url: `/api/tasks/${taskId}/report-problem`, payload: { reason: "damage", description: "The vase was broken when I came home", photoURLs } });
const answer = (who: TestUser, taskId: string, photoURLs: string[]) =>
  call(t, who, { method: "POST", url: `/api/tasks/${taskId}/dispute/messages`, payload: { body: "It was already cracked, see the photo.", photoURLs } });
const disputeOf = async (who: TestUser, taskId: string) => (await call(t, who, { url: `/api/tasks/${taskId}/dispute` })).json<TaskDisputeAnswer>();

describe("dispute photos", () => {
  it("attach to the report and to an answer; both parties and an admin see them, a stranger and a signed-out visitor do not", async () => {
    const { task, poster, provider } = await taskAt(t, "in_progress");
    const res = await report(poster, task.id, [await upload(poster), await upload(poster)]);
    expect(res.statusCode, res.body).toBe(200);
    expect((await answer(provider, task.id, [await upload(provider)])).statusCode).toBe(200);

    const thread = (await disputeOf(provider, task.id)).dispute?.messages ?? [];
    expect(thread.map((m) => [m.authorRole, m.photos.length])).toEqual([
      ["poster", 2],
      ["provider", 1],
    ]);
    const photo = thread[0]?.photos[0];
    if (!photo) throw new Error("no photo");
    expect(photo.small).toBe(`/api/dispute-photos/${photo.id}/small`);

    const admin = await createUser(t, { role: "admin" });
    for (const viewer of [poster, provider, admin]) {
      const image = await call(t, viewer, { url: photo.medium });
      expect(image.statusCode).toBe(200);
      expect(image.headers["content-type"]).toBe("image/webp");
      expect(image.headers["cache-control"]).toBe("private, no-store");
      expect((await sharp(image.rawPayload).metadata()).format).toBe("webp");
    }
    const stranger = await createUser(t);
    expect((await call(t, stranger, { url: photo.small })).statusCode).toBe(404);
    expect((await call(t, null, { url: photo.small })).statusCode).toBe(401);
  });

  it("refuses a sixth photo on one message with a sentence saying what to do", async () => {
    const { task, poster } = await taskAt(t, "in_progress");
    const six = await Promise.all(Array.from({ length: 6 }, () => upload(poster)));
    const res = await report(poster, task.id, six);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ fieldErrors: { photoURLs: DISPUTE_PHOTO_LIMIT_MESSAGE } });
    expect((await disputeOf(poster, task.id)).dispute).toBeNull();
    expect((await report(poster, task.id, six.slice(0, 5))).statusCode).toBe(200);
  });

  it("refuses another person's upload, an upload made for something else, and one photo sent twice", async () => {
    const { task, poster, provider } = await taskAt(t, "in_progress");
    const theirs = await upload(provider);
    const res = await report(poster, task.id, [theirs]);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ fieldErrors: Record<string, string> }>().fieldErrors.photoURLs).toMatch(/not a photo you uploaded/);
    expect((await report(poster, task.id, [await upload(poster, "task_photo")])).statusCode).toBe(400);
    expect((await disputeOf(poster, task.id)).dispute).toBeNull();

    const mine = await upload(poster);
    expect((await report(poster, task.id, [mine])).statusCode).toBe(200);
    const again = await answer(poster, task.id, [mine]);
    expect(again.statusCode).toBe(400);
    expect(again.json<{ fieldErrors: Record<string, string> }>().fieldErrors.photoURLs).toMatch(/already attached/);
    expect((await disputeOf(poster, task.id)).dispute?.messages.map((m) => m.photos.length)).toEqual([1]);
  });

  it("go with their author's account: rows and image files", async () => {
    const { task, poster } = await taskAt(t, "in_progress");
    expect((await report(poster, task.id, [await upload(poster)])).statusCode).toBe(200);
    const [photo] = (await disputeOf(poster, task.id)).dispute?.messages[0]?.photos ?? [];
    if (!photo) throw new Error("no photo");
    const [row] = await t.database.db.select().from(disputePhotos).where(eq(disputePhotos.id, photo.id));
    const admin = await createUser(t, { role: "admin" });
    expect((await call(t, admin, { method: "POST", url: `/api/admin/disputes/${task.id}/resolve`, payload: { refund: 0, reason: "Work was done" } })).statusCode).toBe(200);

    const removed = await call(t, poster, { method: "DELETE", url: "/api/account", payload: { email: poster.email } });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await call(t, admin, { url: photo.small })).statusCode).toBe(404);
    for (const key of [row?.smallKey, row?.mediumKey]) expect(await storage.get(key ?? "")).toBeNull();
  });
});
