import { statementOfAnswer } from "@shared/money-answers";
import type { TaskEscrow } from "@shared/payments";
import { statementWords, type StatementViewer, type StatementWords } from "@shared/statement-words";
import type { TaskStatement } from "@shared/task-statement";
import type { TaskDetail } from "@shared/tasks";
import { dollarsToCents } from "@shared/money";
import { formatDate } from "@/lib/dates";
import { useTaskEscrow } from "../api/get-task-escrow";

// The task's money as one account (docs/decisions/073-one-account-of-each-tasks-money.md): its
// statement from the server, put into words once for the reader by the shared statementWords, and
// handed by the task page to every part that speaks of the money (the badge, the payment box, the
// payment card and the closed chat's line), so they cannot disagree.

export interface TaskAccount {
  escrow: TaskEscrow | null;
  words: StatementWords | null;
}

/** The statement's dates in the reader's own time. */
const day = (iso: string) => formatDate(new Date(iso), "MMM d, yyyy 'at' h:mm a");

/** A task with no lines for this reader: a provider whose offer was not chosen reads only that. */
function emptyStatement(task: TaskDetail): TaskStatement {
  return {
    taskId: task.id,
    items: {
      budgetCents: dollarsToCents(task.budget),
      urgentFeeCents: dollarsToCents(task.urgentFee),
      serviceFeeCents: dollarsToCents(task.serviceFee),
      totalCents: dollarsToCents(task.totalAmount),
      providerShareCents: dollarsToCents(task.providerShare),
      platformCommissionCents: dollarsToCents(task.platformCommission),
    },
    lines: [],
    context: { status: task.status, providerId: task.providerId, hold: null, disputeOpen: false },
  };
}

/**
 * The account of `task` for `viewer` (null: nobody whose money it is, so nothing is fetched). The
 * poster, the task's provider and admins read the server's statement; a passed-over offerer has none.
 */
export function useTaskAccount(task: TaskDetail | undefined, viewer: StatementViewer | null): TaskAccount {
  // A claimed task's provider may leave it (withdraw, release the claim) or be declined at any
  // moment, and the refresh that follows would ask for the escrow as a party no longer: 403. While
  // claimed, their box says the share to come from the task's stored line items instead.
  const providerMayLeave = viewer?.role === "provider" && task?.status === "claimed";
  const fetches = task !== undefined && viewer !== null && viewer.role !== "passed_over" && task.status !== "requested" && !providerMayLeave;
  const escrow = useTaskEscrow(task?.id ?? "", fetches);
  if (!task || viewer === null) return { escrow: null, words: null };
  const providerName = (id: string | null) => (id !== null && id === task.provider?.id ? task.provider.displayName : "the provider");
  if (viewer.role === "passed_over") return { escrow: null, words: statementWords(emptyStatement(task), viewer) };
  if (!escrow.data) return { escrow: null, words: null };
  return { escrow: escrow.data, words: statementWords(statementOfAnswer(task.id, escrow.data.statement), viewer, { providerName, date: day }) };
}
