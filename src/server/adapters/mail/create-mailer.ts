import type { Mailer } from "./mailer.js";
import { createOutboxMailer } from "./outbox-mailer.js";
import type { SmtpMailerOptions } from "./smtp-mailer.js";

// Picks the mail transport: the outbox alone by default, SMTP when SMTP_URL is set
// (docs/decisions/011-email-outbox.md). The SMTP adapter and nodemailer are loaded only when chosen.
export async function createMailer(
  options: Omit<SmtpMailerOptions, "smtpUrl"> & { smtpUrl: string | undefined; /** development: log each mail's links */ logLinks?: boolean },
): Promise<Mailer> {
  const { smtpUrl } = options;
  if (!smtpUrl) return createOutboxMailer({ log: options.log, logLinks: options.logLinks ?? false });
  const { createSmtpMailer } = await import("./smtp-mailer.js");
  const { logLinks: _logLinks, ...smtp } = options;
  return createSmtpMailer({ ...smtp, smtpUrl });
}
