import { desc, eq } from "drizzle-orm";
import { generateSync } from "otplib";
import { describe, expect, it } from "vitest";
import type { SecurityEventView } from "../../../shared/security.js";
import { SECURITY_EVENTS } from "../../../shared/security-rules.js";
import { emailOutbox } from "../../db/schema/site.js";
import { users } from "../../db/schema/users.js";
import { Browser } from "../../../../test/browser.js";
import { createUser, TEST_ORIGIN, useTestApp } from "../../../../test/create-test-app.js";
import { SoftwarePasskey } from "../../../../test/fakes/software-passkey.js";
import { hashPassword } from "./passwords.js";

// Recent security activity (docs/product.md, "Account security"; docs/decisions/050-step-up-and-security-log.md):
// every change of the password, the e-mail address, a second factor or the payout details is
// logged and listed for the person, in words.

const t = await useTestApp();
const PASSWORD = "orchid kettle planet";
const NEW_PASSWORD = "lantern harbour meadow";

async function newestLink(email: string, path: "/verify-email" | "/reset-password"): Promise<string> {
  await t.app.ctx.afterAnswer.settled();
  const [mail] = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, email)).orderBy(desc(emailOutbox.createdAt));
  const token = new RegExp(`${path}\\?token=([A-Za-z0-9_-]+)`).exec(mail?.text ?? "")?.[1];
  if (!token) throw new Error(`no ${path} link to ${email}`);
  return token;
}

describe("recent security activity", () => {
  it("lists every change of the password, the e-mail address, the factors and the payout details", async () => {
    // An approved provider with a password, signed in with it.
    const user = await createUser(t, { verifiedProvider: true });
    await t.database.db.update(users).set({ passwordHash: await hashPassword(PASSWORD) }).where(eq(users.id, user.id));
    let me = new Browser(t);
    expect((await me.post("/api/auth/login", { email: user.email, password: PASSWORD })).statusCode).toBe(200);

    const expectLogged = async (event: keyof typeof SECURITY_EVENTS) => {
      const list = (await me.get("/api/account/security/events")).json<SecurityEventView[]>();
      expect(list.find((e) => e.event === event), event).toMatchObject({ description: SECURITY_EVENTS[event], result: "success" });
    };

    // The password, in Settings.
    expect((await me.post("/api/account/password", { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })).statusCode).toBe(200);
    await expectLogged("password_changed");

    // The authenticator app, recovery codes, a passkey.
    const { secret } = (await me.post("/api/account/security/totp")).json<{ secret: string }>();
    const code = generateSync({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) });
    expect((await me.post("/api/account/security/totp/confirm", { code })).statusCode).toBe(200);
    await expectLogged("totp_enrolled");
    expect((await me.post("/api/account/security/recovery-codes")).statusCode).toBe(200);
    await expectLogged("recovery_codes_regenerated");
    const key = new SoftwarePasskey(TEST_ORIGIN);
    const options = await me.post("/api/account/security/passkeys/options");
    expect((await me.post("/api/account/security/passkeys", { name: "Laptop", response: key.register(options.json()) })).statusCode).toBe(201);
    await expectLogged("passkey_added");
    const [passkey] = (await me.get("/api/account/security")).json<{ passkeys: { id: string }[] }>().passkeys;
    expect((await me.send("PATCH", `/api/account/security/passkeys/${passkey?.id ?? ""}`, { name: "Old laptop" })).statusCode).toBe(200);
    await expectLogged("passkey_renamed");
    expect((await me.delete(`/api/account/security/passkeys/${passkey?.id ?? ""}`)).statusCode).toBe(200);
    await expectLogged("passkey_removed");
    expect((await me.delete("/api/account/security/totp")).statusCode).toBe(200);
    await expectLogged("totp_removed");

    // The payout details.
    expect((await me.post("/api/stripe/connect/account")).statusCode).toBe(201);
    await expectLogged("payout_account_created");
    expect((await me.post("/api/stripe/connect/account-link")).statusCode).toBe(200);
    await expectLogged("payout_details_opened");
    expect((await me.post("/api/sandbox/payouts/complete-onboarding")).statusCode).toBe(200);
    await expectLogged("payout_details_completed");

    // The e-mail address: asked for, then the new address's link (which signs in afresh).
    const newEmail = `moved-${user.id.slice(0, 8)}@example.test`;
    expect((await me.post("/api/auth/change-email", { newEmail, password: NEW_PASSWORD })).statusCode).toBe(202);
    await t.app.ctx.afterAnswer.settled();
    await expectLogged("email_change_requested");
    me = new Browser(t);
    expect((await me.post("/api/auth/verify-email", { token: await newestLink(newEmail, "/verify-email") })).statusCode).toBe(200);
    await expectLogged("email_changed");

    // The password again, through a reset link.
    expect((await me.post("/api/auth/forgot-password", { email: newEmail })).statusCode).toBe(202);
    me = new Browser(t);
    expect((await me.post("/api/auth/reset-password", { token: await newestLink(newEmail, "/reset-password"), password: PASSWORD })).statusCode).toBe(200);
    await expectLogged("password_reset");
  }, 60_000);
});
