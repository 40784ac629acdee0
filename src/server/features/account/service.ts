// Over 400 lines on purpose: every use case here is one of "Your account" in docs/product.md and
// they share its row, photo and session helpers; splitting would scatter one settings page.
import type { FastifyRequest } from "fastify";
import { and, eq, inArray, isNotNull, ne, or, sql } from "drizzle-orm";
import type { TaskStatus } from "../../../shared/constants.js";
import type { AccountPhoto, DeleteAccountBody, PendingPhoto, SessionView } from "../../../shared/account.js";
import { CURRENT_PASSWORD_WRONG, describeDevice } from "../../../shared/account.js";
import { describeProof, type SecurityEventName } from "../../../shared/security-rules.js";
import { formatDollarsExact } from "../../../shared/money.js";
import { DELETED_USER, displayName } from "../../../shared/names.js";
import type { ObjectStorage } from "../../adapters/storage/storage.js";
import type { AppContext } from "../../context.js";
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
import { badRequest, conflict, fieldError, notFound, namedFieldError } from "../../http-errors.js";
import { notifyUser } from "../../notify.js";
import { publicPhotoKey } from "../../public-images.js";

// The account's own settings (docs/product.md, "Your account"; docs/decisions/021-account-settings-deletion-and-export.md).

/**
 * What the account feature needs from others, handed over by app.ts (the composition root): the
 * auth feature's password hashing and policy, and the tasks feature's one transition function for the
 * poster's "cancel" inside our transaction. Features never import each other's modules.
 */
export interface AccountDeps {
  storage: ObjectStorage;
  hashPassword(password: string): Promise<string>;
  verifyPassword(password: string, stored: string): Promise<boolean>;
  /** The password policy (docs/product.md, Passwords): throws a 400 with the reason. */
  assertPasswordAccepted(password: string, owner: { email: string; firstName: string; lastName: string }, field: string): Promise<void>;
  cancelTaskAsPoster(task: { id: string; status: TaskStatus }, poster: SessionUser, options: { tx: Db; now: Date }): Promise<boolean>;
  /** The auth feature's security log: the changes the person sees under Recent security activity (decision 050). */
  recordSecurityEvent(
    db: Db,
    request: Pick<FastifyRequest, "ip" | "headers">,
    now: Date,
    input: { userId: string; event: SecurityEventName; result: "success" | "failure" },
  ): Promise<void>;
  /** Declines a request waiting for this provider's answer, as their own decline would. */
  declineRequestAsProvider(
    task: { id: string; fallback: "open" | "cancel" | null },
    provider: SessionUser,
    options: { tx: Db; now: Date; reason: string },
  ): Promise<boolean>;
}

export type AccountContext = AppContext & AccountDeps;

/** The signed-in caller as the auth plugin resolved it (with the session it came with). */
export type SessionUser = NonNullable<FastifyRequest["user"]>;

// ---------------------------------------------------------------------------------------------
// Name and photo.

export async function updateName(ctx: AppContext, userId: string, name: { firstName: string; lastName: string }): Promise<void> {
  await ctx.db
    .update(users)
    .set({ ...name, updatedAt: ctx.now() })
    .where(eq(users.id, userId));
}

export async function accountPhoto(ctx: AppContext, userId: string): Promise<AccountPhoto> {
  const [row] = await ctx.db
    .select({ profileImageUrl: users.profileImageUrl, pendingProfileImageUrl: users.pendingProfileImageUrl })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw notFound("Account not found");
  return row;
}

async function isApprovedProvider(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: providerProfiles.id })
    .from(providerProfiles)
    .where(and(eq(providerProfiles.userId, userId), eq(providerProfiles.verificationStatus, "approved")));
  return row !== undefined;
}

/**
 * One photo per person: users.profileImageUrl. Anyone's new photo shows at once, except an
 * approved provider's, which waits for an admin while the approved one stays (decision 021).
 */
export async function setPhoto(ctx: AppContext, userId: string, path: string): Promise<AccountPhoto> {
  const id = path.slice("/objects/".length);
  const [upload] = await ctx.db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(eq(uploads.id, id), eq(uploads.ownerId, userId), eq(uploads.kind, "profile_photo"), isNotNull(uploads.sizeBytes)))
    .limit(1);
  if (!upload) throw namedFieldError("photoURL", "This is not a file you uploaded as a profile photo. Upload the photo again.");
  const now = ctx.now();
  if (await isApprovedProvider(ctx.db, userId)) {
    await ctx.db.update(users).set({ pendingProfileImageUrl: path, pendingProfileImageAt: now, updatedAt: now }).where(eq(users.id, userId));
  } else {
    await ctx.db.update(users).set({ profileImageUrl: path, updatedAt: now }).where(eq(users.id, userId));
  }
  // The photo replaced is no longer attached; the unattached-files job deletes it a day later.
  return accountPhoto(ctx, userId);
}

export async function removePhoto(ctx: AppContext, userId: string): Promise<AccountPhoto> {
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ profileImageUrl: null, pendingProfileImageUrl: null, pendingProfileImageAt: null, updatedAt: ctx.now() })
      .where(eq(users.id, userId));
    await tx.update(providerProfiles).set({ profilePhotoPath: null, updatedAt: ctx.now() }).where(eq(providerProfiles.userId, userId));
  });
  return accountPhoto(ctx, userId);
}

export async function listPendingPhotos(ctx: AppContext): Promise<PendingPhoto[]> {
  const rows = await ctx.db
    .select({
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      currentPhotoUrl: users.profileImageUrl,
      pendingPhotoUrl: users.pendingProfileImageUrl,
      submittedAt: users.pendingProfileImageAt,
    })
    .from(users)
    .where(isNotNull(users.pendingProfileImageUrl))
    .orderBy(users.pendingProfileImageAt)
    .limit(200);
  return rows.flatMap((r) =>
    r.pendingPhotoUrl
      ? [
          {
            userId: r.userId,
            name: `${r.firstName} ${r.lastName}`,
            currentPhotoUrl: r.currentPhotoUrl,
            pendingPhotoUrl: r.pendingPhotoUrl,
            submittedAt: (r.submittedAt ?? new Date(0)).toISOString(),
          },
        ]
      : [],
  );
}

/** Approve or reject a pending photo: one conditional UPDATE, with the audit row and the provider's notice. */
export async function decidePhoto(ctx: AppContext, adminId: string, userId: string, decision: "approve" | "reject", reason: string | null): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const [pending] = await tx
      .select({ path: users.pendingProfileImageUrl })
      .from(users)
      .where(and(eq(users.id, userId), isNotNull(users.pendingProfileImageUrl)))
      .for("update");
    if (!pending?.path) throw notFound("No photo change is waiting for this user");
    if (decision === "approve") {
      await tx
        .update(users)
        .set({ profileImageUrl: pending.path, pendingProfileImageUrl: null, pendingProfileImageAt: null, updatedAt: now })
        .where(eq(users.id, userId));
      await tx.update(providerProfiles).set({ profilePhotoPath: pending.path, updatedAt: now }).where(eq(providerProfiles.userId, userId));
    } else {
      await tx.update(users).set({ pendingProfileImageUrl: null, pendingProfileImageAt: null, updatedAt: now }).where(eq(users.id, userId));
    }
    await tx.insert(auditLog).values({
      actorId: adminId,
      action: `profile_photo.${decision}`,
      targetType: "user",
      targetId: userId,
      reason,
      details: { photo: pending.path },
      createdAt: now,
    });
    await notifyUser(ctx, tx, {
      userId,
      kind: "photo_decided",
      ...(decision === "approve"
        ? { title: "Your new profile photo was approved", body: "Your new profile photo is now shown on your profile." }
        : {
            title: "Your new profile photo was not approved",
            body: `Your previous photo stays on your profile. Reason: ${reason ?? ""}\n\nYou can upload another photo in your settings: ${ctx.env.PUBLIC_URL}/settings/profile`,
          }),
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Password and sessions.

export async function changePassword(
  ctx: AccountContext,
  request: Pick<FastifyRequest, "ip" | "headers">,
  user: SessionUser,
  passwords: { currentPassword: string; newPassword: string },
): Promise<number> {
  const { currentPassword, newPassword } = passwords;
  const [row] = await ctx.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, user.id));
  if (!row?.passwordHash) throw badRequest("Your account signs in through single sign-on and has no password to change.");
  if (!(await ctx.verifyPassword(currentPassword, row.passwordHash))) throw fieldError("currentPassword", CURRENT_PASSWORD_WRONG);
  await ctx.assertPasswordAccepted(newPassword, user, "newPassword");
  const passwordHash = await ctx.hashPassword(newPassword);
  return ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: ctx.now() }).where(eq(users.id, user.id));
    await tx.insert(auditLog).values({ actorId: user.id, action: "account.password_changed", targetType: "user", targetId: user.id, createdAt: ctx.now() });
    await ctx.recordSecurityEvent(tx, request, ctx.now(), { userId: user.id, event: "password_changed", result: "success" });
    return endOtherSessions(tx, user);
  });
}

/** Deleting the rows is enough: the table's trigger NOTIFYs and every instance closes those sockets (drizzle/0002). */
export async function endOtherSessions(db: Db, user: SessionUser): Promise<number> {
  const gone = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, user.id), ne(sessions.id, user.sessionId)))
    .returning({ id: sessions.id });
  return gone.length;
}

export async function listSessions(ctx: AppContext, user: SessionUser): Promise<SessionView[]> {
  const rows = await ctx.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, user.id), sql`${sessions.idleExpiresAt} > ${ctx.now()}`, sql`${sessions.absoluteExpiresAt} > ${ctx.now()}`))
    .orderBy(sql`${sessions.lastSeenAt} desc`);
  return rows.map((s) => ({
    id: s.id,
    device: describeDevice(s.userAgent),
    lastSeenAt: s.lastSeenAt.toISOString(),
    createdAt: s.createdAt.toISOString(),
    current: s.id === user.sessionId,
    proof: describeProof(s.firstFactor, s.secondFactor),
  }));
}

export async function endSession(ctx: AppContext, user: SessionUser, sessionId: string): Promise<void> {
  const gone = await ctx.db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, user.id)))
    .returning({ id: sessions.id });
  // Someone else's session answers as one that does not exist.
  if (gone.length === 0) throw notFound("Session not found");
}

// ---------------------------------------------------------------------------------------------
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
