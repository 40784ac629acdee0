import { sql, type SQL } from "drizzle-orm";
import { maskContactDetails } from "../../contact-masking.js";

// Until the poster pays, phone numbers, e-mail addresses and links in a chat message are masked as
// they are in questions and offers; once the task is paid its two people may share them
// (docs/product.md, Chat and notifications; docs/decisions/070-contact-masking.md). Masked when the
// message is stored, like every masked text: the stored row, the live frame, the e-mail notice and
// an export all carry the same words, and no reader has to remember to mask. The statement that
// stores the message picks the version, so the task's paid state is read in the same instant.

/** The content the message statement stores: as written when the task's `paymentCapturedAt` is set, masked before. */
export function storedContentSql(paymentCapturedAt: SQL): SQL {
  return sql`case when ${paymentCapturedAt} is not null then ${sql.placeholder("content")}::text else ${sql.placeholder("maskedContent")}::text end`;
}

/** The placeholders of `storedContentSql` for one message. */
export function contentPlaceholders(content: string): { content: string; maskedContent: string } {
  return { content, maskedContent: maskContactDetails(content) };
}
