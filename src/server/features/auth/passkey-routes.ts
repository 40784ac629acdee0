import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AuthenticationResponseJSON, AuthenticatorTransport, RegistrationResponseJSON } from "@simplewebauthn/server";
import { and, eq, isNull } from "drizzle-orm";
import { okResponseSchema, uuidParamSchema } from "../../../shared/common.js";
import {
  passkeyAssertionBodySchema,
  passkeyNameBodySchema,
  passkeyRegisterBodySchema,
  passkeyViewSchema,
  secondStepResultSchema,
  totpConfirmedSchema,
  webauthnOptionsSchema,
} from "../../../shared/security.js";
import { passkeys, recoveryCodes } from "../../db/schema/security.js";
import { sessions, users } from "../../db/schema/users.js";
import { isUniqueViolation } from "../../db/client.js";
import { badRequest, conflict, errorResponses, notFound, unauthorized } from "../../http-errors.js";
import { requireUser } from "../../plugins/auth.js";
import { rateLimit } from "../../plugins/rate-limit.js";
import type { Proof } from "../../policy.js";
import { endChallenge, findChallenge, firstFactorOf, hasSecondFactor, openSession, setWebauthnChallenge, startChallenge, type Challenge } from "./factors.js";
import { recoveryCodesLeft, replaceRecoveryCodes } from "./recovery-codes.js";
import { toUserView } from "./repository.js";
import { SIGN_IN_TIMED_OUT } from "./second-factor-routes.js";
import { recordSecurityEvent } from "./security-log.js";

// Passkeys (WebAuthn, @simplewebauthn/server): add, rename and remove them in settings; sign in with
// one alone (a discoverable credential names its account), or as the second step after a password;
// confirm it is you with one before a sensitive change. The relying party is PUBLIC_URL's host and
// origin (docs/decisions/049-second-factors.md).

const errors = errorResponses(400, 401, 403, 404, 409, 429);
const NOT_CHECKED = "That passkey could not be checked. Try again, or use another way to confirm it is you.";
const NOT_UNLOCKED =
  "That passkey was used without your fingerprint, face or device PIN, so it does not show it is you. Use a passkey your device unlocks, or sign in with your password.";
const CANNOT_UNLOCK = "That passkey does not ask for your fingerprint, face or device PIN, so it cannot show it is you. Add a passkey from a device that asks for one.";
const TAKEN = "That passkey is already added to an Errandly account. Use it to sign in there, or add another passkey.";

/**
 * Whether the authenticator says it verified the person (the UV flag: fingerprint, face or PIN), or
 * null when its data cannot be read (the library's check refuses that). A passkey stands for two
 * factors, something held and something known or been, only with it (decision 049, "Changed").
 */
async function userVerified(response: AuthenticationResponseJSON | RegistrationResponseJSON): Promise<boolean | null> {
  const { decodeAttestationObject, parseAuthenticatorData } = await import("@simplewebauthn/server/helpers");
  const fields = response.response as { authenticatorData?: unknown; attestationObject?: unknown } | undefined;
  try {
    if (typeof fields?.authenticatorData === "string") return parseAuthenticatorData(Buffer.from(fields.authenticatorData, "base64url")).flags.uv;
    if (typeof fields?.attestationObject === "string") {
      return parseAuthenticatorData(decodeAttestationObject(Buffer.from(fields.attestationObject, "base64url")).get("authData")).flags.uv;
    }
  } catch {
    // Unreadable: the library's check below refuses it.
  }
  return null;
}

/**
 * @simplewebauthn/server (with @peculiar/x509 and asn1js) is loaded with the first passkey request,
 * not at start (docs/decisions/078-modules-loaded-on-first-use.md); Node keeps it once loaded.
 */
const webauthn = () => import("@simplewebauthn/server");

const passkeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const publicUrl = new URL(ctx.env.PUBLIC_URL);
  const rp = { rpID: publicUrl.hostname, origin: publicUrl.origin };
  const sensitive = { auth: "user" as const, freshProof: true };
  // A passkey is added only to a proven address (docs/decisions/067-planted-credentials-go-at-verification.md).
  const adding = { ...sensitive, verifiedEmail: true };
  const perIp = (name: string) => rateLimit(ctx.db, ctx.now, { name, max: 30, windowMs: 15 * 60_000, key: (r) => r.ip });

  const credentialsOf = async (userId: string) =>
    (await ctx.db.select().from(passkeys).where(eq(passkeys.userId, userId))).map((k) => ({
      id: k.credentialId,
      transports: k.transports as AuthenticatorTransport[],
    }));

  /** Checks an assertion against the challenge and the stored key; the passkey on success, a 400 otherwise. */
  async function verifyAssertion(challenge: Challenge, body: Record<string, unknown>, userId: string | null) {
    const response = body as unknown as AuthenticationResponseJSON;
    const [key] = typeof response.id === "string" ? await ctx.db.select().from(passkeys).where(eq(passkeys.credentialId, response.id)) : [];
    if (!key || !challenge.webauthnChallenge || (userId !== null && key.userId !== userId)) throw badRequest(NOT_CHECKED);
    if ((await userVerified(response)) === false) throw badRequest(NOT_UNLOCKED);
    try {
      const { verified, authenticationInfo } = await (await webauthn()).verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge.webauthnChallenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpID,
        credential: { id: key.credentialId, publicKey: Buffer.from(key.publicKey, "base64url"), counter: key.counter },
        requireUserVerification: true,
      });
      if (!verified) throw badRequest(NOT_CHECKED);
      await ctx.db.update(passkeys).set({ counter: authenticationInfo.newCounter, lastUsedAt: ctx.now() }).where(eq(passkeys.id, key.id));
      return key;
    } catch (error) {
      if (error instanceof Error && error.name === "HttpError") throw error;
      throw badRequest(NOT_CHECKED);
    }
  }

  const signedInUser = async (userId: string, proof: Proof) => {
    const [row] = await ctx.db.select().from(users).where(eq(users.id, userId));
    if (!row) throw unauthorized(SIGN_IN_TIMED_OUT);
    return toUserView(row, proof);
  };

  // ------------------------------------------------------------------------------------------
  // Settings: add, rename, remove.

  app.post(
    "/api/account/security/passkeys/options",
    {
      config: adding,
      schema: { operationId: "startPasskeyRegistration", summary: "Options for adding a passkey", tags: ["auth"], response: { 200: webauthnOptionsSchema, ...errors } },
    },
    async (request, reply) => {
      const me = requireUser(request);
      const options = await (await webauthn()).generateRegistrationOptions({
        rpName: "Errandly",
        rpID: rp.rpID,
        userName: me.email,
        userDisplayName: `${me.firstName} ${me.lastName}`.trim(),
        // The user handle a discoverable passkey hands back at sign-in: it names the account.
        userID: new TextEncoder().encode(me.id),
        attestationType: "none",
        excludeCredentials: await credentialsOf(me.id),
        // Only a passkey that checks it is the person (fingerprint, face, PIN) is added: one that
        // cannot would never sign in (decision 049, "Changed").
        authenticatorSelection: { residentKey: "required", userVerification: "required" },
      });
      await startChallenge(app, reply, { purpose: "passkey_register", userId: me.id, webauthnChallenge: options.challenge });
      return options as unknown as Record<string, unknown>;
    },
  );

  app.post(
    "/api/account/security/passkeys",
    {
      config: adding,
      schema: {
        operationId: "addPasskey",
        summary: "Add a passkey",
        tags: ["auth"],
        body: passkeyRegisterBodySchema,
        response: { 201: totpConfirmedSchema, ...errors },
      },
    },
    async (request, reply) => {
      const me = requireUser(request);
      const now = ctx.now();
      const challenge = await findChallenge(app, request, ["passkey_register"]);
      if (!challenge?.webauthnChallenge || challenge.userId !== me.id) throw badRequest("Adding the passkey took too long. Start again.");
      const response = request.body.response as unknown as RegistrationResponseJSON;
      if ((await userVerified(response)) === false) throw badRequest(CANNOT_UNLOCK);
      let credential;
      try {
        const result = await (await webauthn()).verifyRegistrationResponse({
          response,
          expectedChallenge: challenge.webauthnChallenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.rpID,
          requireUserVerification: true,
        });
        if (!result.verified) throw new Error("not verified");
        credential = result.registrationInfo.credential;
      } catch {
        throw badRequest("That passkey could not be added. Try again, or use another device.");
      }
      await endChallenge(app, reply, challenge.id);
      const codes = await ctx.db
        .transaction(async (tx) => {
          await tx.insert(passkeys).values({
            userId: me.id,
            credentialId: credential.id,
            publicKey: Buffer.from(credential.publicKey).toString("base64url"),
            counter: credential.counter,
            transports: credential.transports ?? [],
            name: request.body.name,
            createdAt: now,
          });
          // The passkey just proved it is at hand: this session counts as proven by two factors.
          await tx.update(sessions).set({ secondFactor: "passkey" }).where(and(eq(sessions.id, me.sessionId), isNull(sessions.secondFactor)));
          await recordSecurityEvent(tx, request, now, { userId: me.id, event: "passkey_added", result: "success", details: { name: request.body.name } });
          return (await recoveryCodesLeft(tx, me.id)) === 0 ? replaceRecoveryCodes(tx, me.id, now) : null;
        })
        .catch((error: unknown) => {
          // A credential id names one passkey: it is on this account already, or on another one.
          if (isUniqueViolation(error)) throw conflict(TAKEN);
          throw error;
        });
      return reply.code(201).send({ recoveryCodes: codes });
    },
  );

  app.patch(
    "/api/account/security/passkeys/:id",
    {
      config: { auth: "user" },
      schema: {
        operationId: "renamePasskey",
        summary: "Rename a passkey",
        tags: ["auth"],
        params: uuidParamSchema,
        body: passkeyNameBodySchema,
        response: { 200: passkeyViewSchema, ...errors },
      },
    },
    async (request) => {
      const me = requireUser(request);
      const [key] = await ctx.db
        .update(passkeys)
        .set({ name: request.body.name })
        .where(and(eq(passkeys.id, request.params.id), eq(passkeys.userId, me.id)))
        .returning();
      if (!key) throw notFound("That passkey is not on your account. Reload the page to see your passkeys.");
      await recordSecurityEvent(ctx.db, request, ctx.now(), { userId: me.id, event: "passkey_renamed", result: "success", details: { name: key.name } });
      return { id: key.id, name: key.name, createdAt: key.createdAt.toISOString(), lastUsedAt: key.lastUsedAt?.toISOString() ?? null };
    },
  );

  app.delete(
    "/api/account/security/passkeys/:id",
    {
      config: sensitive,
      schema: { operationId: "removePasskey", summary: "Remove a passkey", tags: ["auth"], params: uuidParamSchema, response: { 200: okResponseSchema, ...errors } },
    },
    async (request) => {
      const me = requireUser(request);
      const gone = await ctx.db
        .delete(passkeys)
        .where(and(eq(passkeys.id, request.params.id), eq(passkeys.userId, me.id)))
        .returning({ name: passkeys.name });
      if (!gone[0]) throw notFound("That passkey is not on your account. Reload the page to see your passkeys.");
      await recordSecurityEvent(ctx.db, request, ctx.now(), { userId: me.id, event: "passkey_removed", result: "success", details: { name: gone[0].name } });
      // Recovery codes stand in for a second factor; with none left they would be a factor of their own.
      if (!(await hasSecondFactor(ctx.db, me.id))) await ctx.db.delete(recoveryCodes).where(eq(recoveryCodes.userId, me.id));
      return { ok: true as const };
    },
  );

  // ------------------------------------------------------------------------------------------
  // Signing in with a passkey: alone (discoverable), or as the second step after the password.

  app.post(
    "/api/auth/passkey/options",
    {
      config: { auth: "public" },
      preHandler: perIp("passkey-options:ip"),
      schema: { operationId: "startPasskeySignIn", summary: "Options for signing in with a passkey", tags: ["auth"], response: { 200: webauthnOptionsSchema, ...errors } },
    },
    async (request, reply) => {
      const secondStep = await findChallenge(app, request, ["second_factor"]);
      if (secondStep?.userId) {
        const options = await (await webauthn()).generateAuthenticationOptions({ rpID: rp.rpID, allowCredentials: await credentialsOf(secondStep.userId), userVerification: "required" });
        await setWebauthnChallenge(ctx.db, secondStep.id, options.challenge);
        return options as unknown as Record<string, unknown>;
      }
      const options = await (await webauthn()).generateAuthenticationOptions({ rpID: rp.rpID, userVerification: "required" });
      await startChallenge(app, reply, { purpose: "passkey_sign_in", userId: null, webauthnChallenge: options.challenge });
      return options as unknown as Record<string, unknown>;
    },
  );

  app.post(
    "/api/auth/passkey",
    {
      config: { auth: "public" },
      preHandler: perIp("passkey-sign-in:ip"),
      schema: {
        operationId: "signInWithPasskey",
        summary: "Sign in with a passkey, alone or as the second step",
        tags: ["auth"],
        body: passkeyAssertionBodySchema,
        response: { 200: secondStepResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      const now = ctx.now();
      const challenge = await findChallenge(app, request, ["second_factor", "passkey_sign_in"]);
      if (!challenge) throw unauthorized("Signing in with the passkey took too long. Try again.");
      let key;
      try {
        key = await verifyAssertion(challenge, request.body.response, challenge.userId);
      } catch (error) {
        await recordSecurityEvent(ctx.db, request, now, { userId: challenge.userId, event: "sign_in", result: "failure", details: { with: "passkey" } });
        throw error;
      }
      if (!(await endChallenge(app, reply, challenge.id))) throw unauthorized(SIGN_IN_TIMED_OUT);
      const proof =
        challenge.purpose === "second_factor" ? { firstFactor: firstFactorOf(challenge), secondFactor: "passkey" as const } : { firstFactor: "passkey" as const };
      await openSession(app, request, reply, key.userId, proof);
      await recordSecurityEvent(ctx.db, request, now, { userId: key.userId, event: "sign_in", result: "success", details: { ...proof } });
      return signedInUser(key.userId, proof);
    },
  );

  // ------------------------------------------------------------------------------------------
  // Step-up with a passkey.

  app.post(
    "/api/auth/step-up/passkey/options",
    {
      config: { auth: "user" },
      schema: { operationId: "startPasskeyStepUp", summary: "Options for confirming it is you with a passkey", tags: ["auth"], response: { 200: webauthnOptionsSchema, ...errors } },
    },
    async (request, reply) => {
      const me = requireUser(request);
      const allowCredentials = await credentialsOf(me.id);
      if (allowCredentials.length === 0) throw badRequest("You have no passkey yet. Confirm it is you with your password instead.");
      const options = await (await webauthn()).generateAuthenticationOptions({ rpID: rp.rpID, allowCredentials, userVerification: "required" });
      await startChallenge(app, reply, { purpose: "step_up", userId: me.id, webauthnChallenge: options.challenge });
      return options as unknown as Record<string, unknown>;
    },
  );

  app.post(
    "/api/auth/step-up/passkey",
    {
      config: { auth: "user" },
      schema: {
        operationId: "stepUpWithPasskey",
        summary: "Confirm it is you with a passkey before a sensitive change",
        tags: ["auth"],
        body: passkeyAssertionBodySchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const me = requireUser(request);
      const now = ctx.now();
      const challenge = await findChallenge(app, request, ["step_up"]);
      if (!challenge || challenge.userId !== me.id) throw badRequest("Confirming with the passkey took too long. Try again.");
      try {
        await verifyAssertion(challenge, request.body.response, me.id);
      } catch (error) {
        await recordSecurityEvent(ctx.db, request, now, { userId: me.id, event: "step_up", result: "failure", details: { with: "passkey" } });
        throw error;
      }
      await endChallenge(app, reply, challenge.id);
      await ctx.db.update(sessions).set({ provenAt: now }).where(eq(sessions.id, me.sessionId));
      await recordSecurityEvent(ctx.db, request, now, { userId: me.id, event: "step_up", result: "success", details: { with: "passkey" } });
      return { ok: true as const };
    },
  );
};

export default passkeyRoutes;
