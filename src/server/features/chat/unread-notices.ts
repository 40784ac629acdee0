import { sql } from "drizzle-orm";
import { notificationPreview } from "../../../shared/chat-text.js";
import type { AppContext } from "../../context.js";
import { queryRows } from "../../db/client.js";
import { notifyUser } from "../../notify.js";

// A chat message nobody has seen for UNSEEN_AFTER_MS gets an in-app notice (and an e-mail, at most
// one per task and recipient per EMAIL_THROTTLE_MS). "Seen" is the read flag the panel sets when
// the message is on screen, so this works across instances with no presence table: a recipient
// with the chat open reads it within a second; one who is away gets told
// (docs/decisions/010-chat-fanout-and-notifications.md).

export const UNSEEN_AFTER_MS = 2 * 60_000;
export const EMAIL_THROTTLE_MS = 15 * 60_000;

interface PendingRow {
  task_id: string;
  recipient_id: string;
  title: string;
  last_content: string;
  unread: number;
  recently_emailed: boolean;
}

export async function noticeUnseenMessages(ctx: AppContext): Promise<number> {
  const now = ctx.now();
  const cutoff = new Date(now.getTime() - UNSEEN_AFTER_MS).toISOString();
  const throttle = new Date(now.getTime() - EMAIL_THROTTLE_MS).toISOString();
  return ctx.db.transaction(async (tx) => {
    // One instance at a time: the lock ends with the transaction, a busy lock skips this round.
    const [lock] = await queryRows<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(hashtext('chat:unseen-notices')) as ok`);
    if (!lock?.ok) return 0;
    const rows = await queryRows<PendingRow>(
      tx,
      sql`with pending as (
            select task_id, recipient_id, min(created_at) as first_unread, count(*)::int as unread
            from messages
            where read = false and created_at <= ${cutoff}::timestamptz
            group by task_id, recipient_id
          )
          select p.task_id, p.recipient_id, p.unread, t.title,
            (select m.content from messages m
              where m.task_id = p.task_id and m.recipient_id = p.recipient_id and m.read = false
              order by m.created_at desc limit 1) as last_content,
            exists (select 1 from notifications n
              where n.user_id = p.recipient_id and n.task_id = p.task_id and n.kind = 'chat_message'
                and n.created_at > ${throttle}::timestamptz) as recently_emailed
          from pending p
          join tasks t on t.id = p.task_id
          where not exists (select 1 from notifications n
            where n.user_id = p.recipient_id and n.task_id = p.task_id and n.kind = 'chat_message'
              and n.created_at >= p.first_unread)
          limit 200`,
    );
    for (const row of rows) {
      await notifyUser(ctx, tx, {
        userId: row.recipient_id,
        kind: "chat_message",
        title: row.unread === 1 ? `New message about "${row.title}"` : `${row.unread} new messages about "${row.title}"`,
        body: notificationPreview(row.last_content),
        taskId: row.task_id,
        email: !row.recently_emailed,
      });
    }
    return rows.length;
  });
}
