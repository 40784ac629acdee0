import { FLAG_UP, FLAG_UV, SoftwarePasskey } from "../../../test/fakes/software-passkey.js";
import { brief, type Check } from "../report.js";
import type { Browser } from "../http.js";
import { must, type Cast, type World } from "../world.js";

// Items 4 and 10: a passkey whose device did not verify the person (flags 0x01: present, not
// verified), and a passkey credential id registered twice.

async function passkeySignIn(browser: Browser, key: SoftwarePasskey, flags: number): Promise<number> {
  const options = await browser.post("/api/auth/passkey/options");
  if (options.status !== 200) return options.status;
  return (await browser.post("/api/auth/passkey", { response: key.assert(options.json() as { challenge: string }, flags) })).status;
}

export async function passkeyVerificationCheck(check: Check, world: World, cast: Cast): Promise<void> {
  // The two-factor admin adds a passkey the normal way (the device verifies the person).
  const { key, answer } = await world.addPasskey(cast.admin2);
  must(answer, 201, "the admin's passkey");

  const unverified = world.browser();
  const alone = await passkeySignIn(unverified, key, FLAG_UP);
  const outbox = await unverified.get("/api/admin/outbox");
  check.expect("a passkey without user verification does not sign the admin in", alone >= 400 && outbox.status === 401, `sign-in ${alone}, then the outbox ${outbox.status}`);

  const secondStep = world.browser();
  const password = await secondStep.post("/api/auth/login", { email: "admin@errandly.test", password: world.demo.password });
  const step = password.status === 202 ? await passkeySignIn(secondStep, key, FLAG_UP) : password.status;
  const stepOutbox = await secondStep.get("/api/admin/outbox");
  check.expect(
    "as the second step, a passkey without user verification does not make two factors",
    password.status === 202 && step >= 400 && stepOutbox.status === 401,
    `password ${password.status}, passkey ${step}, then the outbox ${stepOutbox.status}`,
  );

  const stepUpOptions = await cast.admin2.browser.post("/api/auth/step-up/passkey/options");
  const stepUp =
    stepUpOptions.status === 200
      ? (await cast.admin2.browser.post("/api/auth/step-up/passkey", { response: key.assert(stepUpOptions.json() as { challenge: string }, FLAG_UP) })).status
      : stepUpOptions.status;
  check.expect("a step-up with a passkey without user verification is refused", stepUp >= 400 && stepUp < 500, `step-up ${stepUp}`);

  const weak = new SoftwarePasskey(world.origin);
  const registered = await world.addPasskey(cast.stranger, weak, FLAG_UP);
  check.expect("a passkey registered without user verification is refused", registered.answer.status === 400, brief(registered.answer.status, registered.answer.text));

  const verified = world.browser();
  const ok = await passkeySignIn(verified, key, FLAG_UP | FLAG_UV);
  const okOutbox = await verified.get("/api/admin/outbox");
  check.expect("(control) the same passkey with user verification signs the admin in with two factors", ok === 200 && okOutbox.status === 200, `sign-in ${ok}, outbox ${okOutbox.status}`);
}

export async function duplicatePasskeyCheck(check: Check, world: World, cast: Cast): Promise<void> {
  const first = await world.addPasskey(cast.stranger);
  must(first.answer, 201, "the stranger's passkey");
  const same = await world.addPasskey(cast.stranger, new SoftwarePasskey(world.origin, first.key.id));
  check.expect(
    "the same credential id again on the same account answers 409 with a sentence",
    same.answer.status === 409 && /\w+ \w+ \w+/.test(same.answer.json<{ message?: string }>().message ?? ""),
    brief(same.answer.status, same.answer.text),
  );
  const other = await world.addPasskey(cast.provider, new SoftwarePasskey(world.origin, first.key.id));
  check.expect(
    "the same credential id on another account answers 409 with a sentence",
    other.answer.status === 409 && /\w+ \w+ \w+/.test(other.answer.json<{ message?: string }>().message ?? ""),
    brief(other.answer.status, other.answer.text),
  );
  const stillMine = world.browser();
  const signIn = await passkeySignIn(stillMine, first.key, FLAG_UP | FLAG_UV);
  const who = signIn === 200 ? must(await stillMine.get("/api/auth/user"), 200, "who").json<{ id: string }>().id : null;
  check.expect("the original passkey still signs its owner in", who === cast.stranger.id, `sign-in ${signIn}${who && who !== cast.stranger.id ? " as someone else" : ""}`);
}
