import { categoryLabel } from "../../../shared/constants.js";
import { haversineMiles } from "../../../shared/geo.js";
import { ALERT_EMAIL_INTERVAL_MS, alertNoticeTitle } from "../../../shared/job-alerts.js";
import { formatDollars } from "../../../shared/money.js";
import { roundMiles } from "../../../shared/task-filters.js";
import type { AppContext } from "../../context.js";
import { sendNotice } from "../../declared-notices.js";
import type { TaskActionEvent } from "../../transition-actions.js";
import { candidateAlerts, recordMatches, takeDueDigests, type DigestRow } from "./repository.js";

// The use cases of job alerts that tell people (docs/product.md#job-alerts, docs/decisions/032-job-alerts.md):
// the bell notice when a posted task matches, and the digest e-mail. The queries are repository.ts's.

/**
 * On posting, in the posting transaction: each matching provider gets one `task_alert` in the bell
 * (its NOTIFY is heard on commit, like every notice) and, unless they turned that e-mail off, the
 * match waits for their next digest. A task without a position matches no alert.
 */
export async function alertMatchingProviders(ctx: AppContext, { task, tx, now }: Pick<TaskActionEvent, "task" | "tx" | "now">): Promise<number> {
  if (task.approxLat === null || task.approxLon === null) return 0;
  const position = { lat: task.approxLat, lon: task.approxLon };
  const nearest = new Map<string, { miles: number; emailOff: boolean }>();
  for (const alert of await candidateAlerts(tx, task, position.lat, position.lon)) {
    const miles = haversineMiles(alert, position);
    if (miles > alert.radiusMiles) continue;
    const seen = nearest.get(alert.userId);
    if (!seen || miles < seen.miles) nearest.set(alert.userId, { miles, emailOff: alert.emailOff });
  }
  const place = [task.city ?? task.startCity, task.state ?? task.startState].filter(Boolean).join(", ");
  const digest: { userId: string; miles: number }[] = [];
  for (const [userId, { miles, emailOff }] of nearest) {
    await sendNotice(ctx, tx, "job_alerts.match", "alerted_provider", {
      userId,
      title: alertNoticeTitle({ title: task.title, budget: formatDollars(task.budgetCents), miles: roundMiles(miles) }),
      body: place ? `${categoryLabel(task.category)} in ${place}` : categoryLabel(task.category),
      taskId: task.id,
      // The e-mail is the digest below, never one per task.
      email: false,
    });
    if (!emailOff) digest.push({ userId, miles });
  }
  await recordMatches(tx, task.id, digest, now);
  return nearest.size;
}


/**
 * One e-mail per provider listing every match since their last one, at most one per
 * ALERT_EMAIL_INTERVAL_MS. Safe on many instances: the digest rows are claimed by one conditional
 * UPDATE (due and not sent within the interval; rows another instance holds are skipped), and the
 * matches are taken by the DELETE of the same transaction. Tasks no longer open are left out.
 */
export async function sendAlertDigests(ctx: AppContext, batch = 200): Promise<number> {
  const now = ctx.now();
  const sentBefore = new Date(now.getTime() - ALERT_EMAIL_INTERVAL_MS);
  return ctx.db.transaction(async (tx) => {
    const rows = await takeDueDigests(tx, now, sentBefore, batch);
    const byUser = new Map<string, DigestRow[]>();
    for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
    let sent = 0;
    for (const matches of byUser.values()) {
      const first = matches[0];
      if (!first || first.email_off) continue;
      const lines = matches.map(
        (m) => `${m.title} · ${formatDollars(m.budget_cents)} · ${roundMiles(m.miles)} mi\n${ctx.env.PUBLIC_URL}/task/${m.task_id}`,
      );
      await ctx.mailer.queue(tx, {
        to: first.email,
        subject: matches.length === 1 ? `New task near you: ${first.title}` : `${matches.length} new tasks match your job alerts`,
        text: `${lines.join("\n\n")}\n\nChange your alerts: ${ctx.env.PUBLIC_URL}/settings/alerts\nYou can turn these e-mails off in your notification settings: ${ctx.env.PUBLIC_URL}/settings/notifications`,
        kind: "task_alert",
      });
      sent += 1;
    }
    return sent;
  });
}
