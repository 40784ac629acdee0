import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Env } from "../config/env.js";

// Secrets the server must read back, such as an authenticator app's key, are kept sealed under a
// key that is not in the database (docs/decisions/069-secrets-at-rest-and-encrypted-backups.md):
// AES-256-GCM, stored as `v1:` + base64(nonce | ciphertext | tag), with the row it belongs to as
// additional data, so a sealed value copied into another row does not open. The key is
// SECRETS_KEY, or DATA_DIR/secrets.key made on the first start (as DATA_DIR/vapid.json is).

const VERSION = "v1:";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const SECRETS_KEY_BYTES = 32;
const KEY_FILE = "secrets.key";

/** A sealed value (of this format); anything else in a sealed column is a plain value from before it. */
export const isSealed = (stored: string): boolean => stored.startsWith(VERSION);

/** A new key as SECRETS_KEY and secrets.key hold it: 32 random bytes in base64. */
export const newSecretsKey = (): string => randomBytes(SECRETS_KEY_BYTES).toString("base64");

/** Raised when no key of the box opens a sealed value: another key sealed it, or it was altered. */
export class SecretUnreadable extends Error {}

export class SecretBox {
  private readonly keys: readonly Buffer[];

  /**
   * `keys` in base64: the first seals, every one opens (the rest are previous keys, during a
   * change of key). `source` says where they came from, for messages.
   */
  constructor(keys: readonly string[], readonly source: string) {
    this.keys = keys.map((key) => Buffer.from(key, "base64"));
    if (this.keys.length === 0 || this.keys.some((key) => key.length !== SECRETS_KEY_BYTES)) {
      throw new Error(`${source} does not hold a key of ${SECRETS_KEY_BYTES} bytes in base64`);
    }
  }

  seal(plain: string, aad: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.currentKey(), nonce);
    cipher.setAAD(Buffer.from(aad, "utf8"));
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return VERSION + Buffer.concat([nonce, body, cipher.getAuthTag()]).toString("base64");
  }

  /** The plain value, and whether the current key opened it (false: a previous key did). */
  unseal(stored: string, aad: string): { plain: string; current: boolean } {
    if (!isSealed(stored)) throw new SecretUnreadable("The value is not sealed.");
    const bytes = Buffer.from(stored.slice(VERSION.length), "base64");
    if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new SecretUnreadable("The sealed value is too short.");
    const nonce = bytes.subarray(0, NONCE_BYTES);
    const tag = bytes.subarray(bytes.length - TAG_BYTES);
    const body = bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES);
    for (const [index, key] of this.keys.entries()) {
      const decipher = createDecipheriv("aes-256-gcm", key, nonce);
      decipher.setAAD(Buffer.from(aad, "utf8"));
      decipher.setAuthTag(tag);
      try {
        const plain = Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
        return { plain, current: index === 0 };
      } catch {
        // GCM's tag did not match under this key: try the next one.
      }
    }
    throw new SecretUnreadable(`No key of ${this.source} opens the sealed value.`);
  }

  open(stored: string, aad: string): string {
    return this.unseal(stored, aad).plain;
  }

  /** The keys in base64, the current one first: what a backup carries (decision 069). */
  exportKeys(): string[] {
    return this.keys.map((key) => key.toString("base64"));
  }

  private currentKey(): Buffer {
    const [key] = this.keys;
    if (!key) throw new Error("A secret box has no key.");
    return key;
  }
}

type KeyEnv = Pick<Env, "SECRETS_KEY" | "SECRETS_KEY_PREVIOUS" | "DATA_DIR">;

/** The path of the key file an installation without SECRETS_KEY keeps. */
export const secretsKeyFile = (dataDir: string): string => join(dataDir, KEY_FILE);

/** secrets.key's first line, or null when there is no such file. */
async function readKeyFile(file: string): Promise<string | null> {
  try {
    return (await readFile(file, "utf8")).split("\n")[0]?.trim() ?? "";
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/**
 * Writes `key` as DATA_DIR/secrets.key, created readable by its owner alone and never over an
 * existing file ("wx": two processes starting at once on one data directory keep the first key).
 * Returns false when a file was there already.
 */
export async function writeSecretsKeyFile(dataDir: string, key: string): Promise<boolean> {
  await mkdir(dataDir, { recursive: true });
  try {
    await writeFile(secretsKeyFile(dataDir), `${key}\n`, { mode: 0o600, flag: "wx" });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
}

/**
 * The server's box: SECRETS_KEY (and SECRETS_KEY_PREVIOUS) when set, else DATA_DIR/secrets.key,
 * made now when there is none. With DATABASE_URL, env.ts has required SECRETS_KEY: instances that
 * share a database must share the key.
 */
export async function loadSecretBox(env: KeyEnv): Promise<SecretBox> {
  const box = await findSecretBox(env);
  if (box) return box;
  const made = newSecretsKey();
  const file = secretsKeyFile(env.DATA_DIR);
  if (await writeSecretsKeyFile(env.DATA_DIR, made)) return new SecretBox([made], `${file} (made on this start)`);
  return loadSecretBox(env);
}

/** The box of the configuration without making a key: null when there is no SECRETS_KEY and no file (a backup's view). */
export async function findSecretBox(env: KeyEnv): Promise<SecretBox | null> {
  if (env.SECRETS_KEY) {
    const previous = env.SECRETS_KEY_PREVIOUS;
    return previous ? new SecretBox([env.SECRETS_KEY, previous], "SECRETS_KEY and SECRETS_KEY_PREVIOUS") : new SecretBox([env.SECRETS_KEY], "SECRETS_KEY");
  }
  const file = secretsKeyFile(env.DATA_DIR);
  const key = await readKeyFile(file);
  return key === null ? null : new SecretBox([key], file);
}
