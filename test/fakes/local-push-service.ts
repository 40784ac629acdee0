import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { freePort } from "../../src/server/free-port.js";

// Test support: a push service on localhost (the web-push-testing package's server, in a child
// process). It hands out subscriptions as a browser's push service would, checks each push's VAPID
// signature, decrypts it and keeps it, and answers 410 for a subscription it was told to expire.

const SERVER_SCRIPT = fileURLToPath(new URL("../../node_modules/web-push-testing/src/bin/server.js", import.meta.url));

export interface LocalSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  clientHash: string;
}

export interface LocalPushService {
  /** A device subscribing with the server's VAPID public key. */
  subscribe(applicationServerKey: string): Promise<LocalSubscription>;
  /** The decrypted payloads the device has received, oldest first. */
  received(subscription: LocalSubscription): Promise<string[]>;
  /** The device unsubscribes: further pushes get 410. */
  expire(subscription: LocalSubscription): Promise<void>;
  close(): Promise<void>;
}

export async function startLocalPushService(): Promise<LocalPushService> {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_SCRIPT, String(port)], { stdio: ["ignore", "pipe", "inherit"] });
  // It says "Server running on port N" once it listens.
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the local push service exited with ${code}`)));
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("Server running")) resolve();
    });
  });
  const base = `http://localhost:${port}`;
  const post = async (path: string, body: unknown): Promise<string> => {
    const res = await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`push service ${path} answered ${res.status}: ${text}`);
    return text;
  };
  return {
    async subscribe(applicationServerKey) {
      return (JSON.parse(await post("/subscribe", { userVisibleOnly: "true", applicationServerKey })) as { data: LocalSubscription }).data;
    },
    async received(subscription) {
      return (JSON.parse(await post("/get-notifications", { clientHash: subscription.clientHash })) as { data: { messages: string[] } }).data.messages;
    },
    async expire(subscription) {
      await post(`/expire-subscription/${subscription.clientHash}`, {});
    },
    async close() {
      child.removeAllListeners("exit");
      child.kill();
      await once(child, "exit");
    },
  };
}
