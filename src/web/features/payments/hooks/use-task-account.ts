import { useQuery } from "@tanstack/react-query";
import { statementOfAnswer } from "@shared/money-answers";
import type { TaskEscrow } from "@shared/payments";
import type { StatementViewer, StatementWords } from "@shared/statement-words";
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
  /** The account in the reader's words; null when there is nothing to say (no money moved, nobody's account). */
  words: StatementWords | null;
  /**
   * Whether the words are still coming (the reader, the statement or the words' code): parts that
   * speak of the money wait, rather than say what a task with no account would ("pays nothing",
   * "You'll earn") and then change their minds.
   */
  pending: boolean;
}

/** The statement's dates in the reader's own time. */
const day = (iso: string) => formatDate(new Date(iso), "MMM d, yyyy 'at' h:mm a");

// The words and the statement's rules (statement-words.ts, task-statement.ts: about 3.6 KB Brotli)
// load only when there is something to word: a visitor, and the poster of a task nobody has paid
// for yet, read none (docs/benchmarks.md, task page first loads). Kept in the query cache so that
// a failed fetch is retried like any answer and the module is fetched once.
const loadWords = () => import("@shared/statement-words");
const wordsModuleKey = ["module", "statement-words"] as const;

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
 * The account of `task` for `viewer`: null is nobody whose money it is (nothing is fetched),
 * undefined a reader the page cannot tell yet (a provider whose offers are loading). The poster,
 * the task's provider and admins read the server's statement; a passed-over offerer has none.
 */
export function useTaskAccount(task: TaskDetail | undefined, viewer: StatementViewer | null | undefined): TaskAccount {
  // A claimed task's provider may leave it (withdraw, release the claim) or be declined at any
  // moment, and the refresh that follows would ask for the escrow as a party no longer: 403. While
  // claimed, their box says the share to come from the task's stored line items instead.
  const providerMayLeave = viewer?.role === "provider" && task?.status === "claimed";
  const fetches = task !== undefined && viewer != null && viewer.role !== "passed_over" && task.status !== "requested" && !providerMayLeave;
  const escrow = useTaskEscrow(task?.id ?? "", fetches);
  const statement = escrow.data?.statement;
  // An account with no lines says nothing but a cancelled task's closed chat.
  const wordsNeeded =
    viewer?.role === "passed_over" || (statement !== undefined && (statement.lines.length > 0 || statement.context.status === "cancelled"));
  const wordsCode = useQuery({ queryKey: wordsModuleKey, queryFn: loadWords, enabled: wordsNeeded, staleTime: Infinity, gcTime: Infinity, structuralSharing: false });
  if (!task || viewer === null) return { escrow: null, words: null, pending: false };
  const pending = viewer === undefined || (fetches && !escrow.data) || (wordsNeeded && !wordsCode.data);
  if (viewer === undefined || viewer.role === "passed_over") {
    return { escrow: null, words: wordsCode.data && viewer ? wordsCode.data.statementWords(emptyStatement(task), viewer) : null, pending };
  }
  if (!escrow.data) return { escrow: null, words: null, pending };
  if (!wordsNeeded || !wordsCode.data) return { escrow: escrow.data, words: null, pending };
  const { statementWords } = wordsCode.data;
  const providerName = (id: string | null) => (id !== null && id === task.provider?.id ? task.provider.displayName : "the provider");
  return { escrow: escrow.data, words: statementWords(statementOfAnswer(task.id, escrow.data.statement), viewer, { providerName, date: day }), pending: false };
}
