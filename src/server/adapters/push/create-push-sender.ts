import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import type { Env } from "../../config/env.js";
import type { PushSender } from "./push-sender.js";

// Picks the push adapter (docs/decisions/062-web-push-and-installable-app.md): the keys come from
// VAPID_* when set, else from DATA_DIR/vapid.json, made on first start. If neither can be had (a
// read-only data directory) push is disabled and said so in the log; nothing else stops.

interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

function isVapidKeys(value: unknown): value is VapidKeys {
  if (typeof value !== "object" || value === null) return false;
  const keys = value as Record<string, unknown>;
  return typeof keys.publicKey === "string" && typeof keys.privateKey === "string";
}

async function keysFromDataDir(dataDir: string, generate: () => VapidKeys): Promise<VapidKeys> {
  const file = join(dataDir, "vapid.json");
  try {
    const stored: unknown = JSON.parse(await readFile(file, "utf8"));
    if (isVapidKeys(stored)) return stored;
    throw new Error(`${file} does not hold a publicKey and a privateKey`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  await mkdir(dataDir, { recursive: true });
  const keys = generate();
  try {
    // "wx": two processes starting at once on one data directory keep the first pair written.
    await writeFile(file, JSON.stringify(keys), { mode: 0o600, flag: "wx" });
    return keys;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    return keysFromDataDir(dataDir, generate);
  }
}

/** mailto: the address of MAIL_FROM, unless PUBLIC_URL is https (push services want one or the other). */
function defaultSubject(env: Pick<Env, "PUBLIC_URL" | "MAIL_FROM">): string {
  if (env.PUBLIC_URL.startsWith("https://")) return env.PUBLIC_URL;
  const address = /<([^>]+)>/.exec(env.MAIL_FROM)?.[1] ?? env.MAIL_FROM;
  return `mailto:${address.trim()}`;
}

export async function createPushSender(
  env: Pick<Env, "DATA_DIR" | "PUBLIC_URL" | "MAIL_FROM" | "VAPID_PUBLIC_KEY" | "VAPID_PRIVATE_KEY" | "VAPID_SUBJECT">,
  log: FastifyBaseLogger,
): Promise<PushSender> {
  try {
    const webpush = (await import("web-push")).default;
    const keys =
      env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY
        ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY }
        : await keysFromDataDir(env.DATA_DIR, () => webpush.generateVAPIDKeys());
    const { createWebPushSender } = await import("./web-push-sender.js");
    return createWebPushSender({ ...keys, subject: env.VAPID_SUBJECT ?? defaultSubject(env) });
  } catch (err) {
    log.warn({ err }, "Web Push is off: no VAPID keys could be read or made. Set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or make DATA_DIR writable.");
    return { mode: "disabled", publicKey: null, send: () => Promise.reject(new Error("Web Push is disabled on this server.")) };
  }
}
