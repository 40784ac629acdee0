import { SoftwarePasskey } from "../../../test/fakes/software-passkey.js";
import { waitForToken } from "../server.js";
import type { Check } from "../report.js";
import { must, PASSWORD, type Cast, type Person, type World } from "../world.js";

// Item 12: a password changed in Settings left no entry in "Recent security activity". Every change
// of password, e-mail, factor and payout details is made through the API and looked for in the
// person's own log.

async function events(person: Person): Promise<string[]> {
  return must(await person.browser.get("/api/account/security/events"), 200, "the security log").json<{ event: string }[]>().map((e) => e.event);
}

function expectLogged(check: Check, what: string, log: string[], event: string, done: boolean): void {
  check.expect(`${what} is logged`, done && log.includes(event), done ? (log.includes(event) ? `"${event}" is there` : `no "${event}" among ${log.length} entries`) : "the change itself failed");
}

export async function securityLogCheck(check: Check, world: World, cast: Cast): Promise<void> {
  const person = await world.register("logged", "Lola", "Logged");
  const newPassword = "violet harbor quiver maple";
  const changed = (await person.browser.post("/api/account/password", { currentPassword: PASSWORD, newPassword })).status === 200;
  const totp = await world.enrolTotp(person).then(
    () => true,
    () => false,
  );
  const codes = (await person.browser.post("/api/account/security/recovery-codes")).status === 200;
  const added = await world.addPasskey(person, new SoftwarePasskey(world.origin));
  const passkeyId = added.answer.status === 201 ? added.answer.json<{ id?: string }>().id : undefined;
  const security = must(await person.browser.get("/api/account/security"), 200, "the security overview").json<{ passkeys: { id: string }[] }>();
  const id = passkeyId ?? security.passkeys[0]?.id ?? "";
  const renamed = (await person.browser.patch(`/api/account/security/passkeys/${id}`, { name: "Renamed key" })).status === 200;
  const removed = (await person.browser.delete(`/api/account/security/passkeys/${id}`)).status === 200;
  const totpRemoved = (await person.browser.delete("/api/account/security/totp")).status === 200;
  const newEmail = world.email("logged-new");
  const requested = (await person.browser.post("/api/auth/change-email", { newEmail, password: newPassword })).status === 202;
  const token = requested ? await waitForToken(world.server, newEmail, "/verify-email").catch(() => "") : "";
  const emailChanged = token !== "" && (await person.browser.post("/api/auth/verify-email", { token })).status === 200;

  const log = await events(person);
  expectLogged(check, "a password change in Settings", log, "password_changed", changed);
  expectLogged(check, "adding an authenticator app", log, "totp_enrolled", totp);
  expectLogged(check, "new recovery codes", log, "recovery_codes_regenerated", codes);
  expectLogged(check, "adding a passkey", log, "passkey_added", added.answer.status === 201);
  expectLogged(check, "renaming a passkey", log, "passkey_renamed", renamed);
  expectLogged(check, "removing a passkey", log, "passkey_removed", removed);
  expectLogged(check, "removing the authenticator app", log, "totp_removed", totpRemoved);
  expectLogged(check, "asking to change the e-mail address", log, "email_change_requested", requested);
  expectLogged(check, "the e-mail address changed", log, "email_changed", emailChanged);

  // Payout details: the provider sets up the (sandbox) payout account.
  const created = (await cast.provider.browser.post("/api/stripe/connect/account")).status;
  const link = (await cast.provider.browser.post("/api/stripe/connect/account-link")).status;
  const completed = (await cast.provider.browser.post("/api/sandbox/payouts/complete-onboarding")).status;
  const payoutLog = await events(cast.provider);
  expectLogged(check, "creating the payout account", payoutLog, "payout_account_created", created === 201);
  expectLogged(check, "opening the payout details form", payoutLog, "payout_details_opened", link === 200);
  expectLogged(check, "completing the payout details", payoutLog, "payout_details_completed", completed === 200);
}
