import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { call, createUser, useTestApp } from "../../../../test/create-test-app.js";
import { tinyPdf, tinyPng } from "../../../../test/fixtures/test-files.js";

// A fake S3 (path-style bucket, PUT/GET/HEAD/DELETE object). It checks that every request is
// signed: presigned query parameters for the browser's PUT, an Authorization header otherwise.

const objects = new Map<string, Buffer>();
const presignedQueries: URLSearchParams[] = [];

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const fake = createServer((req, res) => {
  void (async () => {
    const url = new URL(req.url ?? "/", "http://fake");
    const presigned = ["X-Amz-Signature", "X-Amz-Credential", "X-Amz-Expires"].every((k) => url.searchParams.has(k));
    const headerSigned = String(req.headers.authorization ?? "").startsWith("AWS4-HMAC-SHA256 Credential=");
    if (!presigned && !headerSigned) return res.writeHead(403).end("<Error><Code>AccessDenied</Code></Error>");
    if (presigned) presignedQueries.push(url.searchParams);
    const match = /^\/test-bucket\/(.+)$/.exec(url.pathname);
    if (!match?.[1]) return res.writeHead(404).end();
    const key = decodeURIComponent(match[1]);
    const stored = objects.get(key);
    switch (req.method) {
      case "PUT":
        objects.set(key, await readBody(req));
        return res.writeHead(200).end();
      case "HEAD":
        return stored ? res.writeHead(200, { "content-length": stored.length }).end() : res.writeHead(404).end();
      case "GET":
        return stored ? res.writeHead(200, { "content-length": stored.length }).end(stored) : res.writeHead(404).end();
      case "DELETE":
        objects.delete(key);
        return res.writeHead(204).end();
      default:
        return res.writeHead(405).end();
    }
  })();
});
await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
afterAll(() => new Promise<void>((resolve) => fake.close(() => resolve())));

const t = await useTestApp({
  S3_BUCKET: "test-bucket",
  S3_ENDPOINT: `http://127.0.0.1:${(fake.address() as AddressInfo).port}`,
  S3_REGION: "us-east-1",
  S3_ACCESS_KEY_ID: "AKIDTEST",
  S3_SECRET_ACCESS_KEY: "secret-test-key",
});

async function presign(user: Awaited<ReturnType<typeof createUser>>, kind: "id_document" | "profile_photo") {
  const res = await call(t, user, { method: "POST", url: "/api/objects/upload", payload: { kind } });
  expect(res.statusCode).toBe(200);
  return res.json().uploadURL as string;
}

const browserPut = (url: string, body: Buffer) => fetch(url, { method: "PUT", body: new Uint8Array(body) });

describe("S3 storage", () => {
  it("hands out a presigned, path-style, 10-minute PUT URL and keeps the checked file under our key", async () => {
    const owner = await createUser(t);
    const url = await presign(owner, "id_document");
    const parsed = new URL(url);
    expect(parsed.pathname).toMatch(/^\/test-bucket\/incoming\/[0-9a-f-]{36}$/);
    expect(parsed.searchParams.get("X-Amz-Expires")).toBe("600");
    expect((await browserPut(url, tinyPdf())).status).toBe(200);
    expect(presignedQueries.at(-1)?.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);

    const set = await call(t, owner, { method: "PUT", url: "/api/provider/set-id-document", payload: { idDocumentURL: url } });
    expect(set.statusCode).toBe(200);
    const keys = [...objects.keys()];
    expect(keys.some((k) => k.startsWith("incoming/"))).toBe(false);
    expect(keys.filter((k) => k.startsWith("objects/"))).toHaveLength(1);

    // A later PUT to the same URL cannot change the accepted file.
    await browserPut(url, tinyPng());
    const served = await call(t, owner, { url: set.json().objectPath });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("application/pdf");
    expect(served.rawPayload.equals(tinyPdf())).toBe(true);
    expect((await call(t, await createUser(t), { url: set.json().objectPath })).statusCode).toBe(404);
  });

  it.each([
    ["an oversized photo", Buffer.concat([tinyPng(), Buffer.alloc(5_242_880)]), 413],
    ["an executable", Buffer.concat([Buffer.from("MZ"), Buffer.alloc(100)]), 415],
    ["HTML", Buffer.from("<!doctype html><script>alert(1)</script>"), 415],
  ])("deletes %s the browser put and stores nothing", async (_name, body, status) => {
    objects.clear();
    const owner = await createUser(t);
    const url = await presign(owner, "profile_photo");
    await browserPut(url, body);
    const set = await call(t, owner, { method: "PUT", url: "/api/provider/set-profile-photo", payload: { profilePhotoURL: url } });
    expect(set.statusCode).toBe(status);
    expect(objects.size).toBe(0);
    const retry = await call(t, owner, { method: "PUT", url: "/api/provider/set-profile-photo", payload: { profilePhotoURL: url } });
    expect(retry.statusCode).toBe(410);
  });

  it("refuses to complete an expired upload", async () => {
    const owner = await createUser(t);
    const url = await presign(owner, "profile_photo");
    await browserPut(url, tinyPng());
    t.clock.advance(10 * 60_000 + 1);
    const set = await call(t, owner, { method: "PUT", url: "/api/provider/set-profile-photo", payload: { profilePhotoURL: url } });
    expect(set.statusCode).toBe(410);
  });
});
