import type { FastifyRequest } from "fastify";
import { and, eq, isNotNull, ne, sql } from "drizzle-orm";
import type { TaskStatus } from "../../../shared/constants.js";
import type { AccountPhoto, PendingPhoto, SessionView } from "../../../shared/account.js";
import { CURRENT_PASSWORD_WRONG, describeDevice } from "../../../shared/account.js";
import { describeProof, type SecurityEventName } from "../../../shared/security-rules.js";
import type { ObjectStorage } from "../../adapters/storage/storage.js";
import type { AppContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { providerProfiles, uploads } from "../../db/schema/providers.js";
import { auditLog, sessions, users } from "../../db/schema/users.js";
import { badRequest, fieldError, notFound, namedFieldError } from "../../http-errors.js";
import { notifyUser } from "../../notify.js";

// The account's own settings (docs/product.md, "Your account"; docs/decisions/021-account-settings-deletion-and-export.md):
// name and photo, password and sessions. Deleting the account is deletion.ts's, the export export.ts's.

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
