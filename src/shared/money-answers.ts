import { dollarsToCents } from "./money.js";
import type { Earnings, TaskStatementAnswer } from "./payments.js";
import type { ProviderEarning, TaskStatement } from "./task-statement.js";

// The API's money answers (payments.ts: a task's statement, an earnings row) read back into cents
// for the words on the page (statement-words.ts). Kept apart from payments.ts's zod schemas, which
// only type them here: every task page reads a statement, and zod (about 22 KB) stays out of its
// first load (docs/decisions/042-landing-under-90-kb.md; docs/benchmarks.md).

/** The statement back from the API's dollars, for statementWords on the page. */
export function statementOfAnswer(taskId: string, answer: TaskStatementAnswer): TaskStatement {
  const { items } = answer;
  return {
    taskId,
    items: {
      budgetCents: dollarsToCents(items.budget),
      urgentFeeCents: dollarsToCents(items.urgentFee),
      serviceFeeCents: dollarsToCents(items.serviceFee),
      totalCents: dollarsToCents(items.total),
      providerShareCents: dollarsToCents(items.providerShare),
      platformCommissionCents: dollarsToCents(items.platformCommission),
    },
    lines: answer.lines.map((l) => ({
      transactionId: l.transactionId,
      kind: l.kind,
      cents: dollarsToCents(l.amount),
      at: l.at,
      providerId: l.providerId,
      reason: l.reason,
      rule: l.rule && { shareCents: dollarsToCents(l.rule.share), heldCents: dollarsToCents(l.rule.held), releasedCents: dollarsToCents(l.rule.released) },
    })),
    context: answer.context,
  };
}

/** An earnings row as providerEarning gave it, back in cents for earningWords on the page. */
export function earningOfRow(row: Earnings["tasks"][number]): ProviderEarning {
  return {
    status: row.status,
    earnedCents: dollarsToCents(row.earned),
    moved: row.moved,
    tipsCents: dollarsToCents(row.tips),
    refundedToPosterCents: dollarsToCents(row.refundedToPoster),
    recoveredCents: dollarsToCents(row.recovered),
    movedAt: row.movedAt,
    refundedAt: row.refundedAt,
    releaseAt: row.releaseAt,
  };
}
