import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  accountExportSchema,
  accountPhotoSchema,
  accountSchema,
  changePasswordBodySchema,
  deleteAccountBodySchema,
  exportFileName,
  pendingPhotoListSchema,
  photoDecisionParamsSchema,
  profileBodySchema,
  rejectPhotoBodySchema,
  sessionListSchema,
  setPhotoBodySchema,
  signedOutCountSchema,
} from "../../../shared/account.js";
import { okResponseSchema, uuidParamSchema } from "../../../shared/common.js";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/users.js";
import { errorResponses, notFound } from "../../http-errors.js";
import { clearSession, requireUser } from "../../plugins/auth.js";
import { rateLimit } from "../../plugins/rate-limit.js";
import { exportAccount } from "./export.js";
import {
  changePassword,
  decidePhoto,
  endOtherSessions,
  endSession,
  listPendingPhotos,
  listSessions,
  removePhoto,
  setPhoto,
  updateName,
  type AccountDeps,
} from "./service.js";
import { deleteAccount } from "./deletion.js";

// The signed-in person's own account: name, photo, password, sessions, export and deletion; and the
// admin's queue of approved providers' photo changes (docs/decisions/021-account-settings-deletion-and-export.md).

const errors = errorResponses(400, 401, 404, 429);

const accountRoutes: FastifyPluginAsyncZod<AccountDeps> = async (app, deps) => {
  const ctx = { ...app.ctx, ...deps };
  const user = { auth: "user" as const };
  // Password checks cost scrypt time and guess a secret: a few a minute per account is plenty.
  const passwordLimit = (name: string) =>
    rateLimit(ctx.db, ctx.now, { name, max: 10, windowMs: 15 * 60_000, key: (r) => requireUser(r).id });

  const view = async (userId: string) => {
    const [row] = await ctx.db.select().from(users).where(eq(users.id, userId));
    if (!row) throw notFound("Account not found");
    return {
      firstName: row.firstName,
      lastName: row.lastName,
      email: row.email,
      profileImageUrl: row.profileImageUrl,
      pendingProfileImageUrl: row.pendingProfileImageUrl,
      hasPassword: row.passwordHash !== null,
    };
  };

  app.get("/api/account", { config: user, schema: { tags: ["account"], operationId: "getAccount", summary: "Returns the signed-in person's account settings", response: { 200: accountSchema, ...errors } } }, async (request) =>
    view(requireUser(request).id),
  );

  app.patch(
    "/api/account/profile",
    { config: user, schema: { tags: ["account"], operationId: "updateAccountProfile", summary: "Changes the name and contact details", body: profileBodySchema, response: { 200: accountSchema, ...errors } } },
    async (request) => {
      const { id } = requireUser(request);
      await updateName(ctx, id, request.body);
      return view(id);
    },
  );

  app.put(
    "/api/account/photo",
    { config: user, schema: { tags: ["account"], operationId: "setAccountPhoto", summary: "Proposes a new profile photo for review", body: setPhotoBodySchema, response: { 200: accountPhotoSchema, ...errors } } },
    async (request) => setPhoto(ctx, requireUser(request).id, request.body.photoURL),
  );

  app.delete(
    "/api/account/photo",
    { config: user, schema: { tags: ["account"], operationId: "removeAccountPhoto", summary: "Removes the profile photo", response: { 200: accountPhotoSchema, ...errors } } },
    async (request) => removePhoto(ctx, requireUser(request).id),
  );


  app.post(
    "/api/account/password",
    {
      config: user,
      preHandler: passwordLimit("account-password"),
      schema: { tags: ["account"], operationId: "changePassword", summary: "Changes the password", body: changePasswordBodySchema, response: { 200: signedOutCountSchema, ...errors } },
    },
    async (request) => ({ signedOut: await changePassword(ctx, request, requireUser(request), request.body) }),
  );

  app.get(
    "/api/account/sessions",
    { config: user, schema: { tags: ["account"], operationId: "listSessions", summary: "Lists the person's signed-in sessions", response: { 200: sessionListSchema, ...errors } } },
    async (request) => listSessions(ctx, requireUser(request)),
  );

  app.delete(
    "/api/account/sessions/:id",
    { config: user, schema: { tags: ["account"], operationId: "endSession", summary: "Signs one session out", params: uuidParamSchema, response: { 200: okResponseSchema, ...errors } } },
    async (request, reply) => {
      const me = requireUser(request);
      await endSession(ctx, me, request.params.id);
      // Ending the session one is using is signing out: the cookie goes too.
      if (request.params.id === me.sessionId) await clearSession(app, request, reply);
      return { ok: true as const };
    },
  );

  app.post(
    "/api/account/sessions/sign-out-others",
    { config: user, schema: { tags: ["account"], operationId: "endOtherSessions", summary: "Signs every other session out", response: { 200: signedOutCountSchema, ...errors } } },
    async (request) => ({ signedOut: await endOtherSessions(ctx.db, requireUser(request)) }),
  );

  app.get(
    "/api/account/export",
    {
      config: user,
      preHandler: rateLimit(ctx.db, ctx.now, { name: "account-export", max: 10, windowMs: 3_600_000, key: (r) => requireUser(r).id }),
      schema: { tags: ["account"], operationId: "exportAccount", summary: "Downloads everything the account holds", response: { 200: accountExportSchema, ...errors } },
    },
    async (request, reply) => {
      const data = await exportAccount(ctx, requireUser(request).id);
      return reply
        .header("content-disposition", `attachment; filename="${exportFileName(ctx.now())}"`)
        .header("cache-control", "private, no-store")
        .send(data);
    },
  );

  app.delete(
    "/api/account",
    {
      config: user,
      preHandler: passwordLimit("account-delete"),
      schema: { tags: ["account"], operationId: "deleteAccount", summary: "Deletes the signed-in person's account", body: deleteAccountBodySchema, response: { 200: okResponseSchema, ...errorResponses(409), ...errors } },
    },
    async (request, reply) => {
      await deleteAccount(ctx, requireUser(request), request.body);
      await clearSession(app, request, reply);
      return { ok: true as const };
    },
  );

  // The admin's queue: approved providers' new photos, each approved or rejected with a reason.
  const admin = { auth: "admin" as const };
  const adminErrors = { ...errors, ...errorResponses(403) };
  app.get(
    "/api/admin/photo-changes",
    { config: admin, schema: { tags: ["admin"], operationId: "listPhotoChanges", summary: "Lists the profile photos waiting for review", response: { 200: pendingPhotoListSchema, ...adminErrors } } },
    async () => listPendingPhotos(ctx),
  );
  app.post(
    "/api/admin/photo-changes/:userId/approve",
    { config: admin, schema: { tags: ["admin"], operationId: "approvePhotoChange", summary: "Approves a proposed profile photo", params: photoDecisionParamsSchema, response: { 200: okResponseSchema, ...adminErrors } } },
    async (request) => {
      await decidePhoto(ctx, requireUser(request).id, request.params.userId, "approve", null);
      return { ok: true as const };
    },
  );
  app.post(
    "/api/admin/photo-changes/:userId/reject",
    {
      config: admin,
      schema: { tags: ["admin"], operationId: "rejectPhotoChange", summary: "Rejects a proposed profile photo", params: photoDecisionParamsSchema, body: rejectPhotoBodySchema, response: { 200: okResponseSchema, ...adminErrors } },
    },
    async (request) => {
      await decidePhoto(ctx, requireUser(request).id, request.params.userId, "reject", request.body.reason);
      return { ok: true as const };
    },
  );
};

export default accountRoutes;
