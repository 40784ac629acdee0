import { AwsClient } from "aws4fetch";
import type { ObjectStorage } from "./storage.js";

export interface S3Options {
  bucket: string;
  /** Path-style endpoint, e.g. https://s3.us-east-1.amazonaws.com or http://127.0.0.1:9000 */
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * Any S3-compatible store. The browser PUTs to a presigned URL under incoming/{uploadId}; the
 * server then reads it, checks it and copies it to its final key, deleting the incoming object,
 * so a presigned URL can never change a file that was already accepted.
 */
export function createS3Storage(options: S3Options): ObjectStorage {
  const client = new AwsClient({
    accessKeyId: options.accessKeyId,
    secretAccessKey: options.secretAccessKey,
    service: "s3",
    region: options.region,
  });
  const base = options.endpoint.replace(/\/+$/, "");
  const urlOf = (key: string) => `${base}/${encodeURIComponent(options.bucket)}/${key}`;
  const incomingKey = (uploadId: string) => `incoming/${uploadId}`;

  async function send(key: string, init: RequestInit): Promise<Response> {
    return client.fetch(urlOf(key), init);
  }

  async function remove(key: string): Promise<void> {
    const res = await send(key, { method: "DELETE" });
    if (!res.ok && res.status !== 404) throw new Error(`S3 DELETE ${key} failed with ${res.status}`);
  }

  return {
    kind: "s3",
    async signUpload({ uploadId, expiresInSeconds, now }) {
      const url = new URL(urlOf(incomingKey(uploadId)));
      url.searchParams.set("X-Amz-Expires", String(expiresInSeconds));
      const signed = await client.sign(url.toString(), {
        method: "PUT",
        aws: { signQuery: true, datetime: now.toISOString().replace(/[:-]|\.\d{3}/g, "") },
      });
      return signed.url;
    },
    async takeIncoming(uploadId, maxBytes) {
      const key = incomingKey(uploadId);
      const head = await send(key, { method: "HEAD" });
      if (head.status === 404) return { status: "missing" };
      if (!head.ok) throw new Error(`S3 HEAD ${key} failed with ${head.status}`);
      const size = Number(head.headers.get("content-length") ?? "0");
      if (size > maxBytes) {
        await remove(key);
        return { status: "too_large" };
      }
      const res = await send(key, { method: "GET" });
      if (res.status === 404) return { status: "missing" };
      if (!res.ok) throw new Error(`S3 GET ${key} failed with ${res.status}`);
      const body = Buffer.from(await res.arrayBuffer());
      await remove(key);
      // The object may have been replaced between HEAD and GET; the bytes we hold are what counts.
      return body.length > maxBytes ? { status: "too_large" } : { status: "ok", body };
    },
    async discardIncoming(uploadId) {
      await remove(incomingKey(uploadId));
    },
    async put(key, body, contentType) {
      const res = await send(key, { method: "PUT", body: new Uint8Array(body), headers: { "content-type": contentType } });
      if (!res.ok) throw new Error(`S3 PUT ${key} failed with ${res.status}`);
    },
    async get(key) {
      const res = await send(key, { method: "GET" });
      if (res.status === 404) return null;
      if (!res.ok) throw new Error(`S3 GET ${key} failed with ${res.status}`);
      return Buffer.from(await res.arrayBuffer());
    },
    delete: remove,
  };
}
