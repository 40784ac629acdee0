import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { Decrypter, Encrypter, generateX25519Identity, identityToRecipient } from "age-encryption";

// Backup archives are age files (age-encryption.org/v1) encrypted to the operator's backup key as
// they are written (docs/decisions/069-secrets-at-rest-and-encrypted-backups.md): the server holds
// only the public half (BACKUP_RECIPIENT), restore needs the secret one, and any age tool opens
// them (`age -d -i backup-key.txt`), with or without this code.

const AGE_HEADER = "age-encryption.org/v1\n";
const GZIP_MAGIC = [0x1f, 0x8b];

/** Files this code writes are readable by their owner alone. */
const PRIVATE_FILE = 0o600;

/** The key did not open the archive, or is not a backup key: the message is for the operator. */
export class BackupKeyRefused extends Error {}

/** An archive encrypted with age, a plain .tar.gz from before decision 069, or neither. */
export async function archiveKind(path: string): Promise<"encrypted" | "plain" | "unknown"> {
  const handle = await open(path, "r");
  try {
    const head = Buffer.alloc(AGE_HEADER.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (head.subarray(0, bytesRead).toString("latin1") === AGE_HEADER) return "encrypted";
    return GZIP_MAGIC.every((byte, i) => head[i] === byte) ? "plain" : "unknown";
  } finally {
    await handle.close();
  }
}

/**
 * Writes `source` encrypted to `recipient` as `path`: into a file beside it created 0600 (never
 * chmod'ed later, so there is no moment when others may read it), renamed to `path` once `source`
 * has ended and `producer`, whatever feeds it, has succeeded. A failure leaves no file behind.
 */
export async function writeEncrypted(source: Readable, recipient: string, path: string, producer: Promise<void> = Promise.resolve()): Promise<void> {
  const partial = join(dirname(path), `.${basename(path)}.${randomUUID()}.partial`);
  try {
    const encrypter = new Encrypter();
    encrypter.addRecipient(recipient);
    const encrypted = await encrypter.encrypt(Readable.toWeb(source) as ReadableStream<Uint8Array>);
    await Promise.all([
      pipeline(Readable.fromWeb(encrypted as NodeReadableStream<Uint8Array>), createWriteStream(partial, { flags: "wx", mode: PRIVATE_FILE, flush: true })),
      producer,
    ]);
    await rename(partial, path);
  } catch (err) {
    // Stopping the source stops its producer (tar gets a broken pipe); wait for it, whatever it says.
    source.destroy();
    await producer.catch(() => undefined);
    await rm(partial, { force: true });
    throw err;
  }
}

/**
 * The plain bytes of the encrypted archive at `path`. The header is checked before this resolves,
 * so a wrong key is refused before a byte comes out; a damaged payload fails the stream.
 */
export async function decryptedStream(path: string, key: string): Promise<Readable> {
  const decrypter = new Decrypter();
  try {
    decrypter.addIdentity(key);
  } catch {
    throw new BackupKeyRefused(
      "That is not a backup key: give the whole AGE-SECRET-KEY-1… line of the file `npm run backup -- --new-key` wrote (the age1… line is its public half, which cannot decrypt).",
    );
  }
  const source = createReadStream(path);
  try {
    const plain = await decrypter.decrypt(Readable.toWeb(source) as ReadableStream<Uint8Array>);
    return Readable.fromWeb(plain as NodeReadableStream<Uint8Array>);
  } catch (err) {
    source.destroy();
    if (err instanceof Error && /no identity matched/.test(err.message)) {
      throw new BackupKeyRefused(
        `The backup key given does not open ${path}: it was encrypted for another key. ` +
          "Give the key (AGE-SECRET-KEY-1…) whose public half was BACKUP_RECIPIENT when this backup was made.",
      );
    }
    throw new BackupKeyRefused(`${path} could not be decrypted: ${err instanceof Error ? err.message : String(err)}. It is damaged or not a backup archive.`);
  }
}

/** A new backup key, as an identity file that age reads too (`age -d -i FILE`), and its public half. */
export async function newBackupKey(now: Date): Promise<{ file: string; recipient: string }> {
  const identity = await generateX25519Identity();
  const recipient = await identityToRecipient(identity);
  return { file: `# created: ${now.toISOString()}\n# public key: ${recipient}\n${identity}\n`, recipient };
}

/** The key in an identity file's text (its first AGE-SECRET-KEY line), or null. */
export function keyFromIdentityFile(text: string): string | null {
  return (
    text
      .split("\n")
      .map((line) => line.trim())
      .find((line) => line.startsWith("AGE-SECRET-KEY-")) ?? null
  );
}
