import { eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { call, createUser, TEST_ORIGIN, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { createPoster, createProvider, postTask, taskAt } from "../../../../test/fixtures/factory.js";
import { tinyPng } from "../../../../test/fixtures/test-files.js";
import { TASK_PHOTO_LIMIT_MESSAGE, type TaskPhoto, type TaskPhotosResponse } from "../../../shared/task-photos.js";
import type { BoardTask, TaskDetail } from "../../../shared/tasks.js";
import { createStorage } from "../../adapters/storage/create-storage.js";
import { uploads } from "../../db/schema/providers.js";
import { taskPhotos } from "../../db/schema/task-photos.js";
import { resolvePageHead } from "../seo/head.js";

// Task photos end to end through app.inject (docs/product.md#task-photos, docs/decisions/030-task-photos.md).

const t = await useTestApp();
const storage = await createStorage(t.env);

/** A 2000×1000 JPEG from a phone held sideways (EXIF orientation 6) that says where it was taken. */
async function phoneJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 2000, height: 1000, channels: 3, background: "#3a7" } })
    .jpeg()
    .withExif({
      IFD0: { Make: "TestCam", Model: "Errandly Phone" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "40/1 26/1 46/1", GPSLongitudeRef: "W", GPSLongitude: "79/1 58/1 56/1" },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** The signed single-use flow: an upload URL of `kind`, the PUT of the bytes; answers the PUT too. */
async function upload(user: TestUser, bytes: Buffer, kind = "task_photo"): Promise<{ uploadURL: string; status: number; message: string }> {
  const link = await call(t, user, { method: "POST", url: "/api/objects/upload", payload: { kind } });
  expect(link.statusCode, link.body).toBe(200);
  const uploadURL = link.json<{ uploadURL: string }>().uploadURL;
  const put = await call(t, user, { method: "PUT", url: uploadURL, payload: bytes, headers: { "content-type": "application/octet-stream" } });
  return { uploadURL, status: put.statusCode, message: put.json<{ message?: string }>().message ?? "" };
}

const addPhoto = (user: TestUser | null, taskId: string, photoURL: string, alt?: string) =>
  call(t, user, { method: "POST", url: `/api/tasks/${taskId}/photos`, payload: alt === undefined ? { photoURL } : { photoURL, alt } });

async function attach(user: TestUser, taskId: string, bytes?: Buffer, alt?: string): Promise<TaskPhoto[]> {
  const { uploadURL, status } = await upload(user, bytes ?? tinyPng());
  expect(status).toBe(200);
  const res = await addPhoto(user, taskId, uploadURL, alt);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TaskPhotosResponse>().photos;
}

const removePhoto = (user: TestUser | null, taskId: string, photoId: string) =>
  call(t, user, { method: "DELETE", url: `/api/tasks/${taskId}/photos/${photoId}` });

const detail = async (taskId: string, user: TestUser | null = null) => (await call(t, user, { url: `/api/tasks/${taskId}` })).json<TaskDetail>();

describe("processing", () => {
  it("keeps the original private and serves WebP images of at most 320 and 1280 px, upright and without EXIF or GPS", async () => {
    const poster = await createPoster(t);
    const task = await postTask(t, poster);
    const original = await phoneJpeg();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const [photo] = await attach(poster, task.id, original);
    if (!photo) throw new Error("no photo");

    for (const [url, longest] of [
      [photo.small, 320],
      [photo.medium, 1280],
    ] as const) {
      const res = await call(t, null, { url });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("image/webp");
      expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta.format).toBe("webp");
      expect(Math.max(meta.width, meta.height)).toBe(longest);
      // Orientation 6 turned the 2:1 landscape file into the portrait the phone saw.
      expect(meta.height).toBe(meta.width * 2);
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      expect(res.rawPayload.includes(Buffer.from("TestCam"))).toBe(false);
    }

    // The original, EXIF and all, is not served to anyone but its owner.
    const [row] = await t.database.db.select({ uploadId: taskPhotos.uploadId }).from(taskPhotos).where(eq(taskPhotos.id, photo.id));
    expect((await call(t, null, { url: `/objects/${row?.uploadId}` })).statusCode).toBe(404);
    expect((await call(t, await createProvider(t), { url: `/objects/${row?.uploadId}` })).statusCode).toBe(404);
  });

  it("answers 400, never 500, for a damaged image, and 415 when the bytes are not JPEG, PNG or WebP", async () => {
    const poster = await createPoster(t);
    const task = await postTask(t, poster);
    const damaged = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 0x41)]);
    const { uploadURL } = await upload(poster, damaged);
    const res = await addPhoto(poster, task.id, uploadURL);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe("This image could not be read (it may be damaged). Choose another photo and upload it again.");

    const pdf = await upload(poster, Buffer.from("%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n"));
    expect(pdf.status).toBe(415);
    expect(pdf.message).toBe("This file is not a JPEG, PNG or WebP file. Choose a file in one of those formats and upload it again.");
    const html = await upload(poster, Buffer.from("<html><script>alert(1)</script></html>"));
    expect(html.status).toBe(415);
    expect((await detail(task.id)).photos).toEqual([]);
  });

  it("refuses a file over 10 MB with 413 and keeps nothing", async () => {
    const poster = await createPoster(t);
    const big = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(10_485_760)]);
    const { uploadURL, status, message } = await upload(poster, big);
    expect(status).toBe(413);
    expect(message).toBe("This file is larger than 10 MB. Choose a smaller file and upload it again.");
    const task = await postTask(t, poster);
    expect((await addPhoto(poster, task.id, uploadURL)).statusCode).toBe(400);
  });
});

describe("who may add and remove", () => {
  it("only the poster: others 403, signed out 401, an unknown task 404, another task's photo 404", async () => {
    const poster = await createPoster(t);
    const task = await postTask(t, poster);
    const stranger = await createProvider(t);
    const strangerUpload = await upload(stranger, tinyPng());
    expect((await addPhoto(stranger, task.id, strangerUpload.uploadURL)).statusCode).toBe(403);
    expect((await addPhoto(null, task.id, strangerUpload.uploadURL)).statusCode).toBe(401);
    const unknown = await addPhoto(poster, crypto.randomUUID(), strangerUpload.uploadURL);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ message: string }>().message).toBe("Task not found");

    const [photo] = await attach(poster, task.id);
    if (!photo) throw new Error("no photo");
    expect((await removePhoto(stranger, task.id, photo.id)).statusCode).toBe(403);
    expect((await removePhoto(null, task.id, photo.id)).statusCode).toBe(401);
    const other = await postTask(t, poster);
    const wrongTask = await removePhoto(poster, other.id, photo.id);
    expect(wrongTask.statusCode).toBe(404);
    expect(wrongTask.json<{ message: string }>().message).toBe("Photo not found");
    expect((await detail(task.id)).photos.map((p) => p.id)).toEqual([photo.id]);
  });

  it("a photoURL that is not this poster's finished task photo upload is 400 with a message", async () => {
    const poster = await createPoster(t);
    const task = await postTask(t, poster);
    const someoneElse = await upload(await createPoster(t), tinyPng());
    const theirs = await addPhoto(poster, task.id, someoneElse.uploadURL);
    expect(theirs.statusCode).toBe(400);
    expect(theirs.json<{ message: string }>().message).toBe("photoURL: This is not a task photo you uploaded. Upload the photo again, then add it.");

    const profilePhoto = await upload(poster, tinyPng(), "profile_photo");
    const wrongKind = await addPhoto(poster, task.id, profilePhoto.uploadURL);
    expect(wrongKind.statusCode).toBe(400);
    expect(wrongKind.json<{ message: string }>().message).toBe("photoURL: This file was uploaded for another purpose. Upload it again here.");

    const link = await call(t, poster, { method: "POST", url: "/api/objects/upload", payload: { kind: "task_photo" } });
    const notPut = await addPhoto(poster, task.id, link.json<{ uploadURL: string }>().uploadURL);
    expect(notPut.statusCode).toBe(400);
    expect(notPut.json<{ message: string }>().message).toBe("photoURL: The file has not been uploaded yet. Upload the file, then try again.");

    expect((await addPhoto(poster, task.id, "https://evil.example/x.jpg")).statusCode).toBe(400);

    // One upload is one photo: the same URL again is refused and leaves one.
    const { uploadURL } = await upload(poster, tinyPng());
    expect((await addPhoto(poster, task.id, uploadURL)).statusCode).toBe(200);
    const again = await addPhoto(poster, task.id, uploadURL);
    expect(again.statusCode).toBe(400);
    expect(again.json<{ message: string }>().message).toBe("photoURL: This photo is already attached to a task. Upload it again to use it twice.");
    expect((await detail(task.id)).photos).toHaveLength(1);
  });

  it("only while the task is open: 409 with a plain message afterwards", async () => {
    const { task, poster } = await taskAt(t, "claimed");
    const { uploadURL } = await upload(poster, tinyPng());
    const res = await addPhoto(poster, task.id, uploadURL);
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toBe("Photos can only be added or removed while the task is open");
  });
});

describe("limits and listing", () => {
  it("five per task: the sixth is 409 and nothing is kept", async () => {
    const poster = await createPoster(t);
    const task = await postTask(t, poster);
    for (let i = 0; i < 5; i++) await attach(poster, task.id);
    const { uploadURL } = await upload(poster, tinyPng());
    const sixth = await addPhoto(poster, task.id, uploadURL);
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json<{ message: string }>().message).toBe(TASK_PHOTO_LIMIT_MESSAGE);
    expect(await t.database.db.select().from(taskPhotos).where(eq(taskPhotos.taskId, task.id))).toHaveLength(5);
  });

  it("the task page and the job board carry the photos, with the poster's descriptions or 'Photo N of <title>'", async () => {
    const poster = await createPoster(t);
    const task = await postTask(t, poster, { body: { title: "Photo board test couch" } });
    const bare = await postTask(t, poster, { body: { title: "Photo board test bare" } });
    await attach(poster, task.id, undefined, "  A grey couch by the door  ");
    const photos = await attach(poster, task.id);
    expect(photos.map((p) => p.alt)).toEqual(["A grey couch by the door", "Photo 2 of Photo board test couch"]);
    expect(photos[0]?.small).toBe(`/api/task-photos/${photos[0]?.id}/small`);

    for (const viewer of [null, poster, await createProvider(t)]) {
      expect((await detail(task.id, viewer)).photos).toEqual(photos);
    }
    const board = (await call(t, null, { url: "/api/tasks/open?search=Photo%20board%20test" })).json<BoardTask[]>();
    expect(board.find((x) => x.id === task.id)?.photo).toEqual({ small: photos[0]?.small, alt: "A grey couch by the door" });
    expect(board.find((x) => x.id === bare.id)?.photo).toBeNull();
  });

  it("removing a photo takes it off the listing and deletes its files", async () => {
    const poster = await createPoster(t);
    const task = await postTask(t, poster);
    const first = (await attach(poster, task.id))[0];
    const second = (await attach(poster, task.id))[1];
    if (!first || !second) throw new Error("photos missing");
    const [row] = await t.database.db.select().from(taskPhotos).where(eq(taskPhotos.id, first.id));
    const [original] = await t.database.db.select().from(uploads).where(eq(uploads.id, row?.uploadId ?? ""));
    expect(await storage.get(row?.smallKey ?? "")).not.toBeNull();

    const res = await removePhoto(poster, task.id, first.id);
    expect(res.statusCode).toBe(200);
    // The remaining photo is now the first: its default description follows its place.
    expect(res.json<TaskPhotosResponse>().photos).toEqual([{ ...second, alt: `Photo 1 of ${task.title}` }]);
    expect((await detail(task.id)).photos.map((p) => p.id)).toEqual([second.id]);
    expect((await call(t, null, { url: first.small })).statusCode).toBe(404);
    for (const key of [row?.smallKey, row?.mediumKey, original?.storageKey]) expect(await storage.get(key ?? "")).toBeNull();
    expect(await t.database.db.select().from(uploads).where(eq(uploads.id, row?.uploadId ?? ""))).toEqual([]);
    expect((await removePhoto(poster, task.id, first.id)).statusCode).toBe(404);
  });
});

describe("sharing and deleting the account", () => {
  it("a shared task link's og:image is the first photo's medium image", async () => {
    const poster = await createPoster(t);
    const task = await postTask(t, poster);
    const sources = { db: t.database.db, publicUrl: TEST_ORIGIN };
    expect((await resolvePageHead(sources, `/task/${task.id}`)).image).toBe(`${TEST_ORIGIN}/og-image.png`);
    const [first] = await attach(poster, task.id);
    await attach(poster, task.id);
    expect((await resolvePageHead(sources, `/task/${task.id}`)).image).toBe(`${TEST_ORIGIN}${first?.medium}`);
  });

  it("deleting the account deletes the photos of their tasks and every file of them", async () => {
    const poster = await createUser(t);
    const task = await postTask(t, poster);
    const [photo] = await attach(poster, task.id);
    const [row] = await t.database.db.select().from(taskPhotos).where(eq(taskPhotos.id, photo?.id ?? ""));
    const [original] = await t.database.db.select().from(uploads).where(eq(uploads.id, row?.uploadId ?? ""));
    const res = await call(t, poster, { method: "DELETE", url: "/api/account", payload: { email: poster.email } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await detail(task.id)).photos).toEqual([]);
    for (const key of [row?.smallKey, row?.mediumKey, original?.storageKey]) expect(await storage.get(key ?? "")).toBeNull();
  });
});
