import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MONEY_NOTICES, MONEY_TRANSITIONS } from "../shared/money-lifecycle.js";
import { NOTIFICATION_KINDS } from "../shared/notifications.js";
import { TASK_EVENT_NOTICES, TASK_EVENTS } from "../shared/task-events.js";
import { TASK_NOTICES, TASK_PROCESS } from "../shared/task-lifecycle.js";
import { DECLARED_NOTICES, sendNotice, type NoticeAction } from "./declared-notices.js";

// Every notice a row sends is declared beside its table (docs/decisions/083-every-consequence-in-its-row.md).

/** Every action name any row of the three tables names. */
const NAMED: readonly string[] = [
  ...TASK_PROCESS.flatMap((row) => row.actions),
  ...MONEY_TRANSITIONS.flatMap((row) => row.actions),
  ...TASK_EVENTS.flatMap((row) => row.actions),
];

/** The server's source files, tests left out, with their text. */
function serverSources(dir = import.meta.dirname): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return serverSources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [{ path, text: readFileSync(path, "utf8") }] : [];
  });
}

describe("the declared notices", () => {
  it("declare every notify.* action a row names, and only actions some row names", () => {
    for (const action of NAMED.filter((name) => name.startsWith("notify."))) expect(Object.hasOwn(DECLARED_NOTICES, action), action).toBe(true);
    for (const action of Object.keys(DECLARED_NOTICES)) expect(NAMED, action).toContain(action);
  });

  it("name each action in one table only, each recipient once, with a known template", () => {
    const keys = [...Object.keys(TASK_NOTICES), ...Object.keys(MONEY_NOTICES), ...Object.keys(TASK_EVENT_NOTICES)];
    expect(new Set(keys).size).toBe(keys.length);
    for (const [action, notices] of Object.entries(DECLARED_NOTICES)) {
      expect(notices.length, action).toBeGreaterThan(0);
      expect(new Set(notices.map((n) => n.to)).size, action).toBe(notices.length);
      for (const { template } of notices) expect(NOTIFICATION_KINDS).toContain(template);
    }
  });

  it("refuses a notice its action does not declare, before anything is written", async () => {
    const ctx = { mailer: {}, env: {} } as never;
    const tx = {} as never;
    const notice = { userId: "u", title: "t", body: "b" };
    await expect(sendNotice(ctx, tx, "notify.poster_claimed" satisfies NoticeAction, "provider", notice)).rejects.toThrow(/does not name/);
    await expect(sendNotice(ctx, tx, "notify.poster_claimed", "poster", { ...notice, kind: "dispute" })).rejects.toThrow(/declares task_claimed/);
  });

  it("are the only notices the action handlers send: no file that registers a handler calls notifyUser", () => {
    const registering = serverSources().filter((f) => /\b(taskActions|moneyActions|taskEventActions|events)\.handle\(|\bm\.handle\(/.test(f.text));
    expect(registering.length).toBeGreaterThan(3);
    expect(registering.filter((f) => /\bnotifyUser\(/.test(f.text)).map((f) => f.path)).toEqual([]);
  });

  it("are the only notices about a task: notifyUser is called only by the sender and by notices about a person, not a task", () => {
    // About a person or their account, not a task's row (docs/decisions/083-every-consequence-in-its-row.md):
    // a photo decision, a review hidden or an account suspended, an application decided, unread chat messages.
    const aboutAPerson = ["account/service.ts", "moderation/service.ts", "providers/service.ts", "chat/unread-notices.ts"].map((f) => join(import.meta.dirname, "features", f));
    const callers = serverSources().filter((f) => /\bnotifyUser\(/.test(f.text) && !f.path.endsWith("notify.ts"));
    expect(callers.map((f) => f.path).filter((path) => !aboutAPerson.includes(path))).toEqual([join(import.meta.dirname, "declared-notices.ts")]);
  });
});
