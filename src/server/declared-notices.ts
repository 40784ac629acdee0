import { MONEY_NOTICES } from "../shared/money-lifecycle.js";
import type { NotificationKind } from "../shared/notifications.js";
import { TASK_EVENT_NOTICES } from "../shared/task-events.js";
import { TASK_NOTICES, type NoticeDeclaration, type NoticeRecipient } from "../shared/task-lifecycle.js";
import type { AppContext } from "./context.js";
import type { Db } from "./db/client.js";
import { notifyUser, type NotifyInput } from "./notify.js";

// The one sender of the notices the tables' rows declare (docs/decisions/083-every-consequence-in-its-row.md):
// an action handler names its action and the recipient, and the declaration gives the template (the
// notification kind). A notice to a recipient its action does not declare cannot be sent, so the
// tables say every notice a transition or a task event sends.

/** Every declared notice, by the action that sends it. */
export const DECLARED_NOTICES: Readonly<Record<NoticeAction, NoticeDeclaration>> = { ...TASK_NOTICES, ...MONEY_NOTICES, ...TASK_EVENT_NOTICES };
export type NoticeAction = keyof typeof TASK_NOTICES | keyof typeof MONEY_NOTICES | keyof typeof TASK_EVENT_NOTICES;

/** The action named `name`, when it declares notices (a ledger kind's `ledger.<kind>`); throws otherwise. */
export function noticeAction(name: string): NoticeAction {
  if (!Object.hasOwn(DECLARED_NOTICES, name)) throw new Error(`The action "${name}" declares no notice`);
  return name as NoticeAction;
}

/**
 * Sends `action`'s notice to `to`, in the declared template. A notice built elsewhere may carry its
 * kind: it must be the declared one.
 */
export async function sendNotice(
  ctx: Pick<AppContext, "mailer" | "env"> & Partial<Pick<AppContext, "now">>,
  tx: Db,
  action: NoticeAction,
  to: NoticeRecipient,
  input: Omit<NotifyInput, "kind"> & { kind?: NotificationKind },
): Promise<void> {
  const declared = DECLARED_NOTICES[action].find((notice) => notice.to === to);
  if (!declared) throw new Error(`The action "${action}" sends a notice to the ${to}, which its declaration does not name`);
  if (input.kind !== undefined && input.kind !== declared.template) {
    throw new Error(`The action "${action}" sends a ${input.kind} notice to the ${to}, where it declares ${declared.template}`);
  }
  await notifyUser(ctx, tx, { ...input, kind: declared.template });
}
