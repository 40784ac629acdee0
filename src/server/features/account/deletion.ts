import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { DeleteAccountBody } from "../../../shared/account.js";
import { formatDollarsExact } from "../../../shared/money.js";
import { DELETED_USER, displayName } from "../../../shared/names.js";
import type { Db } from "../../db/client.js";
import { emailOptOuts, notifications } from "../../db/schema/chat.js";
import { jobAlertDigests, jobAlertMatches, jobAlerts } from "../../db/schema/job-alerts.js";
import { escrowHolds, ledgerEntries, payments, payouts } from "../../db/schema/payments.js";
import { disputePhotos } from "../../db/schema/payments.js";
import { providerProfiles, uploads } from "../../db/schema/providers.js";
import { taskPhotos } from "../../db/schema/task-photos.js";
import { reviews } from "../../db/schema/reviews.js";
import { tasks } from "../../db/schema/tasks.js";
import { auditLog, sessions, users } from "../../db/schema/users.js";
import { badRequest, conflict, notFound } from "../../http-errors.js";
import { publicPhotoKey } from "../../public-images.js";
import type { AccountContext, SessionUser } from "./service.js";

// Deleting the account (docs/decisions/021-account-settings-deletion-and-export.md).

interface BusyTask {
  title: string;
  status: string;
  posterId: string;
  paid: boolean;
}

/**
 * Why a claimed or started task stops the deletion, with what this person can do about it: only the
 * poster may cancel, and only before work starts; a provider finishes the work, or waits for the poster
 * (docs/product.md, Task states).
 */
function busyTaskReason(busy: BusyTask, userId: string): string {
  const task = `"${busy.title}"`;
  if (busy.posterId === userId) {
    return busy.status === "claimed"
      ? `Your task ${task} has a provider. Cancel it on its page (any payment is refunded), or wait until it is done, then delete your account.`
      : `Your task ${task} is in progress. Once the provider marks it complete you can delete your account.`;
  }
  if (busy.status === "in_progress") return `You are working on ${task}. Mark it complete when the work is done, then delete your account.`;
  return busy.paid
    ? `You claimed ${task} and it is paid. Do the task and mark it complete, or ask its poster to cancel it, then delete your account.`
    : `You claimed ${task} and its poster has not paid yet. Ask the poster to decline your claim, or wait: an unpaid claim ends at its payment deadline. Then delete your account.`;
}

/** The first reason the account cannot be deleted yet, in plain words; null when it can. */
export async function deletionBlocker(db: Db, userId: string): Promise<string | null> {
  const mine = or(eq(tasks.userId, userId), eq(tasks.providerId, userId));
  const [busy] = await db
    .select({ title: tasks.title, status: tasks.status, posterId: tasks.userId, paid: sql<boolean>`${tasks.paymentCapturedAt} is not null` })
    .from(tasks)
    .where(and(mine, inArray(tasks.status, ["claimed", "in_progress"])))
    .limit(1);
  if (busy) return busyTaskReason(busy, userId);
  const [held] = await db
    .select({ title: tasks.title, status: escrowHolds.status })
    .from(escrowHolds)
    .innerJoin(tasks, eq(tasks.id, escrowHolds.taskId))
    .where(and(mine, inArray(escrowHolds.status, ["holding", "disputed"])))
    .limit(1);
  if (held) {
    return held.status === "disputed"
      ? `The payment for "${held.title}" is held while a reported problem is settled. You can delete your account once it is released or refunded.`
      : `The payment for "${held.title}" is still held in escrow. You can delete your account once it is released.`;
  }
  const [processing] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.posterId, userId), eq(payments.status, "processing")))
    .limit(1);
  if (processing) return "A card payment of yours is still being processed. Try again in a few minutes.";
  const [balance] = await db
    .select({ total: sql<string | null>`sum(${ledgerEntries.amountCents})` })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.account, `provider:${userId}:balance`));
  const cents = Number(balance?.total ?? 0);
  if (cents !== 0) {
    return `You have ${formatDollarsExact(cents)} in earnings that has not been paid out yet. Set up payouts on your earnings page and wait for the payout, then delete your account.`;
  }
  const [payout] = await db
    .select({ amountCents: payouts.amountCents })
    .from(payouts)
    .where(and(eq(payouts.providerId, userId), eq(payouts.status, "pending")))
    .limit(1);
  if (payout) return `A payout of ${formatDollarsExact(payout.amountCents)} is still on its way to you. You can delete your account once it has arrived.`;
  return null;
}

/** Unique and never deliverable: .invalid is reserved (RFC 2606). */
export const deletedEmail = (userId: string) => `deleted-${userId}@deleted.invalid`;

async function confirmIdentity(ctx: AccountContext, userId: string, body: DeleteAccountBody): Promise<void> {
  const [row] = await ctx.db.select({ email: users.email, passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  if (!row) throw notFound("Account not found");
  if (row.passwordHash) {
    if (!body.password) throw badRequest("Enter your password to confirm that you want to delete your account.");
    if (!(await ctx.verifyPassword(body.password, row.passwordHash))) throw badRequest("Your password is not right. Check it and try again.");
    return;
  }
  // Single-sign-on accounts have no password: typing the address out is the deliberate step.
  if ((body.email ?? "").trim().toLowerCase() !== row.email) {
    throw badRequest("Type your e-mail address exactly as it is on your account to confirm.");
  }
}

/** The reason a poster reads when the provider they requested closed their account before answering. */
const ACCOUNT_CLOSED_REASON = "I closed my Errandly account.";

/**
 * Erases or anonymizes what identifies the person; keeps the records others rely on (tasks they
 * were part of, payments, ledger entries, review ratings). Refused with 409 while a task, escrow,
 * balance or payout of theirs is still open. Their open tasks are cancelled through the tasks'
 * transition function, so the usual events run.
 */
export async function deleteAccount(ctx: AccountContext, user: SessionUser, body: DeleteAccountBody): Promise<void> {
  await confirmIdentity(ctx, user.id, body);
  const storageKeys = await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    // The user's row first, then their open tasks and requests still waiting: a claim or an accept
    // waits for us and then finds them cancelled (a requested provider is told, as on any cancel).
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for("update");
    const open = await tx
      .select({ id: tasks.id, status: tasks.status })
      .from(tasks)
      .where(and(eq(tasks.userId, user.id), inArray(tasks.status, ["open", "requested"])))
      .for("update");
    const blocker = await deletionBlocker(tx, user.id);
    if (blocker) throw conflict(blocker);
    for (const task of open) {
      if (!(await ctx.cancelTaskAsPoster(task, user, { tx, now }))) throw conflict("One of your tasks changed while deleting. Please try again.");
    }
    // Requests still waiting for their answer are declined, so no poster waits out the window for
    // a closed account: the task opens or is cancelled as its poster chose, and they are told.
    const waiting = await tx
      .select({ id: tasks.id, fallback: tasks.requestFallback })
      .from(tasks)
      .where(and(eq(tasks.requestedProviderId, user.id), eq(tasks.status, "requested")))
      .for("update");
    for (const task of waiting) {
      if (!(await ctx.declineRequestAsProvider(task, user, { tx, now, reason: ACCOUNT_CLOSED_REASON }))) throw conflict("A request for you changed while deleting. Please try again.");
    }
    const placeholder = deletedEmail(user.id);
    const [before] = await tx.select({ email: users.email }).from(users).where(eq(users.id, user.id));
    await tx
      .update(users)
      .set({
        firstName: DELETED_USER.firstName,
        lastName: DELETED_USER.lastName,
        email: placeholder,
        passwordHash: null,
        oidcSubject: null,
        profileImageUrl: null,
        pendingProfileImageUrl: null,
        pendingProfileImageAt: null,
        role: "user",
        deletedAt: now,
        updatedAt: now,
      })
      .where(eq(users.id, user.id));
    await tx
      .update(providerProfiles)
      .set({
        fullName: displayName(DELETED_USER),
        email: placeholder,
        phone: "",
        address: "",
        city: "",
        state: "",
        zipCode: "",
        bio: "",
        serviceTypes: [],
        availability: {},
        hourlyRateCents: null,
        idDocumentPath: null,
        profilePhotoPath: null,
        // Out of the directory and off the job board for good.
        verificationStatus: "rejected",
        rejectionReason: "Account deleted",
        payoutsEnabled: false,
        updatedAt: now,
      })
      .where(eq(providerProfiles.userId, user.id));
    // Their words in reviews go; the rating stays, for the other person's average.
    await tx.update(reviews).set({ comment: null }).where(eq(reviews.reviewerId, user.id));
    await tx.delete(notifications).where(eq(notifications.userId, user.id));
    await tx.delete(emailOptOuts).where(eq(emailOptOuts.userId, user.id));
    // Job alerts say where the person looks for work (decision 032).
    await tx.delete(jobAlerts).where(eq(jobAlerts.userId, user.id));
    await tx.delete(jobAlertMatches).where(eq(jobAlertMatches.userId, user.id));
    await tx.delete(jobAlertDigests).where(eq(jobAlertDigests.userId, user.id));
    if (before) await ctx.mailer.withdrawUnsent(tx, before.email);
    // Their task photos go with their other files, the images made from them too (decisions 030 and 009).
    const photos = await tx
      .delete(taskPhotos)
      .where(inArray(taskPhotos.uploadId, tx.select({ id: uploads.id }).from(uploads).where(eq(uploads.ownerId, user.id))))
      .returning({ smallKey: taskPhotos.smallKey, mediumKey: taskPhotos.mediumKey });
    // So do the photos they sent in disputes (decision 057): the thread keeps their words, not their files.
    const evidence = await tx
      .delete(disputePhotos)
      .where(inArray(disputePhotos.uploadId, tx.select({ id: uploads.id }).from(uploads).where(eq(uploads.ownerId, user.id))))
      .returning({ smallKey: disputePhotos.smallKey, mediumKey: disputePhotos.mediumKey });
    const files = await tx.delete(uploads).where(eq(uploads.ownerId, user.id)).returning({ id: uploads.id, kind: uploads.kind, storageKey: uploads.storageKey });
    // Every session, this one included: the trigger closes their sockets on every instance.
    await tx.delete(sessions).where(eq(sessions.userId, user.id));
    await tx.insert(auditLog).values({
      actorId: user.id,
      action: "account.deleted",
      targetType: "user",
      targetId: user.id,
      details: { cancelledTasks: open.length, filesDeleted: files.length },
      createdAt: now,
    });
    return [
      ...files.flatMap((f) => (f.kind === "profile_photo" ? [f.storageKey, publicPhotoKey(f.id)] : [f.storageKey])),
      ...[...photos, ...evidence].flatMap((p) => [p.smallKey, p.mediumKey]),
    ];
  });
  // The files go after the commit: a failure leaves an orphan file (logged), never a row pointing nowhere.
  for (const key of storageKeys) {
    try {
      await ctx.storage.delete(key);
    } catch (error) {
      ctx.log.error({ err: error, key }, "could not delete a deleted account's file");
    }
  }
}
