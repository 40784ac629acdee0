import { generateSync } from "otplib";
import { brief, type Check } from "../report.js";
import { PASSWORD, type World } from "../world.js";

// Item 5: an attacker who knows the password guesses the six-digit code, one guess from each of
// many addresses (each new address used to get five fresh guesses). The owner's recovery code must
// still let them in.

/** A six-digit code that is not the app's at any step the server would accept now. */
function wrongCode(i: number, secret: string): string {
  const step = Math.floor(Date.now() / 30_000);
  const near = new Set([-2, -1, 0, 1, 2].map((d) => generateSync({ secret, epoch: (step + d) * 30 })));
  let n = i;
  let code = "";
  do code = String(100_000 + ((n++ * 7919) % 900_000));
  while (near.has(code));
  return code;
}

export async function codeGuessingCheck(check: Check, world: World): Promise<void> {
  const owner = await world.register("guessed", "Gus", "Guessed");
  const { secret, recoveryCodes } = await world.enrolTotp(owner);
  const answers: number[] = [];
  let wrongTaken = 0;
  let paused = "";
  for (let i = 0; i < 16; i += 1) {
    const attacker = world.browser();
    const signIn = await attacker.post("/api/auth/login", { email: owner.email, password: PASSWORD });
    if (signIn.status !== 202) throw new Error(`the password step answered ${signIn.status}`);
    const code = wrongCode(i, secret);
    const guess = await attacker.post("/api/auth/second-factor", { code });
    answers.push(guess.status);
    attacker.close();
    if (guess.status === 429) {
      paused = guess.text;
      break;
    }
    if (guess.status === 401) wrongTaken += 1;
  }
  check.expect(
    "wrong codes from many addresses meet one ceiling per account",
    paused !== "" && wrongTaken <= 10,
    `${wrongTaken} wrong codes taken from ${wrongTaken} addresses before ${paused ? "429" : "no refusal"} (${answers.join(" ")})`,
  );

  const right = world.browser();
  await right.post("/api/auth/login", { email: owner.email, password: PASSWORD });
  const correct = await right.post("/api/auth/second-factor", { code: await world.totpCode(secret) });
  check.expect("past the ceiling even the right code waits (the ceiling is the account's, not the address's)", correct.status === 429, brief(correct.status, correct.text));

  const rescue = world.browser();
  await rescue.post("/api/auth/login", { email: owner.email, password: PASSWORD });
  const recovery = await rescue.post("/api/auth/second-factor", { code: recoveryCodes[0] ?? "" });
  check.expect("the owner's recovery code still signs in", recovery.status === 200, brief(recovery.status, recovery.text));
}
