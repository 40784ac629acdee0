import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { SqlStatement } from "../../db/prepared.js";
import { emailOptOuts } from "../../db/schema/chat.js";
import { emailOutbox } from "../../db/schema/site.js";
import { users } from "../../db/schema/users.js";
import type { Alongside, OutgoingMail, UserMail } from "./mailer.js";

// Every write to the outbox table, for both transports (mailer.ts says why mail goes through it):
// callers reach these through their Mailer, never the table (docs/decisions/011-email-outbox.md).

type OutboxStatus = "stored" | "queued";

/** One mail into the outbox, in `tx`. */
export async function insertMail(tx: Db, mail: OutgoingMail, status: OutboxStatus): Promise<void> {
  await tx.insert(emailOutbox).values({ ...mail, attachments: mail.attachments && mail.attachments.length > 0 ? mail.attachments : null, status });
}

/** The statements of queueForUser: one per caller's `alongside` name, written once and only executed. */
const userMailStatements = new Map<string, SqlStatement<{ mailedTo: string | null }>>();

function userMailStatement(alongside: Alongside): SqlStatement<{ mailedTo: string | null }> {
  const made = userMailStatements.get(alongside.name);
  if (made) return made;
  const p = sql.placeholder;
  const statement = new SqlStatement<{ mailedTo: string | null }>(
    alongside.name,
    sql`with ${alongside.ctes}, mail as (
        insert into ${emailOutbox} ("to", subject, text, kind, status, attachments)
        select u.email, ${p("mailSubject")}, ${p("mailText")}, ${p("mailKind")}, ${p("mailStatus")}, ${p("mailAttachments")}::jsonb
        from ${users} u
        where u.id = ${p("mailUserId")}::uuid
          and not exists (select 1 from ${emailOptOuts} o where o.user_id = u.id and o.kind = ${p("mailKind")})
        returning "to"
      )
      select ${alongside.select}, (select "to" from mail) as mailed_to`,
  );
  userMailStatements.set(alongside.name, statement);
  return statement;
}

/** A mail to a user unless they turned its kind off, in one statement with the caller's writes: the address written, or null. */
export async function insertUserMail(tx: Db, mail: UserMail, status: OutboxStatus, alongside: Alongside): Promise<string | null> {
  const [row] = await userMailStatement(alongside).rows(tx, {
    ...alongside.values,
    mailUserId: mail.userId,
    mailSubject: mail.subject,
    mailText: mail.text,
    mailKind: mail.kind,
    mailStatus: status,
    mailAttachments: mail.attachments && mail.attachments.length > 0 ? JSON.stringify(mail.attachments) : null,
  });
  return row?.mailedTo ?? null;
}

/** The mail to `to` not sent yet (stored, queued or given up on) leaves the outbox. */
export async function deleteUnsentMail(tx: Db, to: string): Promise<void> {
  await tx.delete(emailOutbox).where(and(eq(emailOutbox.to, to), inArray(emailOutbox.status, ["stored", "queued", "failed"])));
}
