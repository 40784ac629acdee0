import { describe, expect, it } from "vitest";
import { parseEnv } from "../../config/env.js";
import { createStorage } from "./create-storage.js";

// Local disk unless an S3 bucket and its keys are set; the S3 adapter is loaded only then.

const s3 = { S3_BUCKET: "b", S3_ACCESS_KEY_ID: "k", S3_SECRET_ACCESS_KEY: "s" };

describe("createStorage", () => {
  // A partial set of S3 settings never gets here: the env refuses it at boot.
  it("keeps files on local disk by default", async () => {
    expect((await createStorage(parseEnv({}))).kind).toBe("local");
  });

  it("uses S3 with a bucket and both keys", async () => {
    expect((await createStorage(parseEnv(s3))).kind).toBe("s3");
  });
});
