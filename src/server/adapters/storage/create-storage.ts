import { join } from "node:path";
import type { Env } from "../../config/env.js";
import { createLocalStorage } from "./local-storage.js";
import type { ObjectStorage } from "./storage.js";

// Picks where uploaded files live: local disk under DATA_DIR by default, any S3-compatible store
// when S3_BUCKET and its keys are set (docs/decisions/009-uploads-and-storage.md). The S3 adapter
// and its signing library are loaded only when chosen.
export async function createStorage(env: Env): Promise<ObjectStorage> {
  if (env.S3_BUCKET && env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY) {
    const { createS3Storage } = await import("./s3-storage.js");
    return createS3Storage({
      bucket: env.S3_BUCKET,
      endpoint: env.S3_ENDPOINT ?? `https://s3.${env.S3_REGION}.amazonaws.com`,
      region: env.S3_REGION,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    });
  }
  return createLocalStorage(env.STORAGE_DIR ?? join(env.DATA_DIR, "objects"));
}
