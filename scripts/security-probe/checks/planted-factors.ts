import { mailLinks, waitForToken } from "../server.js";
import { brief, type Check } from "../report.js";
import type { Browser } from "../http.js";
import { PASSWORD, type World } from "../world.js";

// Item 2: an attacker registers someone's address before them, signs in unverified and plants
// factors; the owner then proves the inbox. Played through the sign-up link, a reset link and an
// ADMIN_EMAILS address.

const OWNER_PASSWORD = "tundra whistle saffron kettle";
const NEW_OWNER_PASSWORD = "marble canyon lantern hush";

async function squat(world: World, email: string): Promise<Browser> {
  const attacker = world.browser();
  const registered = await attacker.post("/api/auth/register", { email, password: PASSWORD, firstName: "Mallory", lastName: "Squat" });
  const signedIn = await attacker.post("/api/auth/login", { email, password: PASSWORD });
  if (registered.status !== 202 || signedIn.status !== 200) throw new Error(`squatting ${email}: register ${registered.status}, sign-in ${signedIn.status}`);
  return attacker;
}

/** Every way to add a factor, tried by the unverified attacker: the answers. */
async function plant(world: World, attacker: Browser): Promise<string[]> {
  const answers: string[] = [];
  const totp = await attacker.post("/api/account/security/totp");
  answers.push(`app ${totp.status}`);
  if (totp.status === 200) {
    const secret = totp.json<{ secret: string }>().secret;
    answers.push(`confirm ${(await attacker.post("/api/account/security/totp/confirm", { code: await world.totpCode(secret) })).status}`);
  }
  answers.push(`recovery codes ${(await attacker.post("/api/account/security/recovery-codes")).status}`);
  const options = await attacker.post("/api/account/security/passkeys/options");
  answers.push(`passkey ${options.status}`);
  return answers;
}

export async function plantedFactorsCheck(check: Check, world: World, bossEmail: string): Promise<void> {
  // Through the sign-up link: the owner registers the taken address and opens the link mailed to it.
  const email = world.email("owner");
  const attacker = await squat(world, email);
  const planted = await plant(world, attacker);
  check.expect("an unverified account cannot add any factor", planted.every((a) => / 403$/.test(a)), planted.join(", "));
  const change = await attacker.post("/api/auth/change-email", { newEmail: world.email("squatter-inbox"), password: PASSWORD });
  const before = mailLinks(world.server, email).length;
  const owner = world.browser();
  await owner.post("/api/auth/register", { email, password: OWNER_PASSWORD, firstName: "Olive", lastName: "Owner" });
  const token = await waitForToken(world.server, email, "/verify-email", before > 0 ? 1 : 0);
  const verified = await owner.post("/api/auth/verify-email", { token });
  check.expect("the owner's link signs the owner in with no factor asked", verified.status === 200, brief(verified.status, verified.text));
  const attackerAfter = await attacker.get("/api/auth/user");
  check.expect("the attacker's session ends when the owner proves the inbox", attackerAfter.status === 401, `attacker's /api/auth/user: ${attackerAfter.status}`);
  const attackerAgain = await world.browser().post("/api/auth/login", { email, password: PASSWORD });
  check.expect("the attacker's password no longer signs in", attackerAgain.status === 401, `attacker's sign-in: ${attackerAgain.status}`);
  if (change.status === 202) {
    const changeToken = await waitForToken(world.server, world.email("squatter-inbox"), "/verify-email").catch(() => null);
    const followed = changeToken ? await attacker.post("/api/auth/verify-email", { token: changeToken }) : null;
    check.expect(
      "the attacker's pending change of address dies with the proof",
      followed === null || followed.status >= 400,
      followed ? `following it answered ${followed.status}` : "no link was sent",
    );
  }
  const ownerAgain = await world.browser().post("/api/auth/login", { email, password: OWNER_PASSWORD });
  check.expect("the owner signs in with the password alone (no planted factor asked)", ownerAgain.status === 200, brief(ownerAgain.status, ownerAgain.text));
  const log = await owner.get("/api/account/security/events");
  check.expect("the owner's security log says the address was confirmed", log.status === 200 && log.text.includes("email_verified"), `${log.status}, events: ${[...new Set(log.text.match(/"event":"[a-z_]+"/g) ?? [])].join(" ")}`);

  // Through a reset link: the owner never registers, they reset the password of the squatted account.
  const resetEmail = world.email("resetter");
  const squatter = await squat(world, resetEmail);
  await plant(world, squatter);
  await world.browser().post("/api/auth/forgot-password", { email: resetEmail });
  const resetToken = await waitForToken(world.server, resetEmail, "/reset-password");
  const reset = await world.browser().post("/api/auth/reset-password", { token: resetToken, password: NEW_OWNER_PASSWORD });
  const squatterAfter = await squatter.get("/api/auth/user");
  check.expect(
    "a reset link ends the squatter's session and asks no planted factor",
    reset.status === 200 && squatterAfter.status === 401,
    `reset ${reset.status}, squatter's session ${squatterAfter.status}`,
  );

  // An ADMIN_EMAILS address: the squatter would have become an admin.
  const boss = await squat(world, bossEmail);
  const bossPlanted = await plant(world, boss);
  const bossBefore = mailLinks(world.server, bossEmail).length;
  const realBoss = world.browser();
  await realBoss.post("/api/auth/register", { email: bossEmail, password: OWNER_PASSWORD, firstName: "Bea", lastName: "Boss" });
  const bossToken = await waitForToken(world.server, bossEmail, "/verify-email", bossBefore > 0 ? 1 : 0);
  const bossVerified = await realBoss.post("/api/auth/verify-email", { token: bossToken });
  const bossSquatter = await boss.get("/api/auth/user");
  const bossAnother = await world.browser().post("/api/auth/login", { email: bossEmail, password: PASSWORD });
  const me = bossVerified.status === 200 ? bossVerified.json<{ role: string; isAdmin: boolean; adminNeedsSecondFactor: boolean }>() : null;
  check.expect(
    "an ADMIN_EMAILS address: the squatter plants nothing and keeps nothing",
    bossPlanted.every((a) => / 403$/.test(a)) && bossSquatter.status === 401 && bossAnother.status === 401,
    `plants: ${bossPlanted.join(", ")}; squatter's session ${bossSquatter.status}, squatter's password ${bossAnother.status}`,
  );
  check.expect(
    "the real ADMIN_EMAILS owner is an admin who must add a factor",
    me !== null && me.role === "admin" && !me.isAdmin && me.adminNeedsSecondFactor,
    me ? `role ${me.role}, isAdmin ${me.isAdmin}, adminNeedsSecondFactor ${me.adminNeedsSecondFactor}` : brief(bossVerified.status, bossVerified.text),
  );
}
