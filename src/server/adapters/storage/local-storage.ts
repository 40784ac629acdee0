import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { ObjectStorage } from "./storage.js";

/** Files under `dir` (STORAGE_DIR, or DATA_DIR/objects); the upload URL points at our own PUT /api/objects/put/{token}. */
export function createLocalStorage(dir: string): ObjectStorage {
  const root = resolve(dir);
  // Keys are ours (uuid based), but refuse anything that could climb out of the folder anyway.
  const pathOf = (key: string) => {
    if (!/^[a-z]+\/[0-9a-f-]{36}$/.test(key)) throw new Error(`invalid storage key ${key}`);
    return join(root, key);
  };
  return {
    kind: "local",
    async signUpload({ token }) {
      return `/api/objects/put/${token}`;
    },
    async takeIncoming() {
      return { status: "missing" };
    },
    async discardIncoming() {},
    async put(key, body) {
      const path = pathOf(key);
      await mkdir(resolve(path, ".."), { recursive: true });
      await writeFile(path, body, { flag: "wx" });
    },
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw err;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
