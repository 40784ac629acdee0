import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { Decrypter } from "age-encryption";
import { ROOT } from "../server.js";
import type { Check } from "../report.js";
import type { Cast, World } from "../world.js";

// Item 6: `npm run backup` wrote a world-readable plain archive with every authenticator key in
// clear, and the keys were plain in the database. Played as the operator's nightly job against the
// running server's data directory, then read as whoever finds the archive on a shared disk.

function npm(args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), ...env } });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("close", (code) => resolve({ code: code ?? -1, out }));
  });
}

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8).padStart(3, "0");

export async function backupsCheck(check: Check, world: World, cast: Cast): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "errandly-probe-backup-"));
  try {
    const keyFile = join(work, "backup-key.txt");
    const made = await npm(["backup", "--", "--new-key", keyFile], {});
    const recipient = /BACKUP_RECIPIENT=(age1\S+)/.exec(made.out)?.[1];
    if (!recipient) throw new Error(`no backup key was made: ${made.out.slice(0, 300)}`);
    check.expect("the backup key file is readable by its owner alone", mode(keyFile) === "600", `mode ${mode(keyFile)}`);

    const refused = await npm(["backup", "--", join(work, "plain.tar.gz")], { DATA_DIR: world.server.dataDir });
    check.expect("a backup without BACKUP_RECIPIENT is refused", refused.code !== 0 && readdirSync(work).length === 1, `exit ${refused.code}, files ${readdirSync(work).join(" ")}`);

    const archive = join(work, "nightly.tar.gz.age");
    const backup = await npm(["backup", "--", archive], { DATA_DIR: world.server.dataDir, BACKUP_RECIPIENT: recipient });
    if (backup.code !== 0) throw new Error(`npm run backup failed: ${backup.out.slice(-400)}`);
    check.expect("the archive is readable by its owner alone", mode(archive) === "600", `mode ${mode(archive)}`);
    const bytes = readFileSync(archive);
    const clear = [cast.victim.email, cast.victim.totpSecret, world.demo.adminTotpKey, "scrypt$", "chat-canary-kestrel"].filter((s) => bytes.includes(Buffer.from(s)));
    check.expect(
      "the archive is an age file with nothing readable in it",
      bytes.subarray(0, 21).toString() === "age-encryption.org/v1" && clear.length === 0,
      `starts "${bytes.subarray(0, 21).toString()}", ${clear.length} secrets in clear`,
    );

    // Whoever holds the backup key reads it: the authenticator keys inside must still be sealed.
    const keyLine = readFileSync(keyFile, "utf8").split("\n").find((l) => l.startsWith("AGE-SECRET-KEY-1")) ?? "";
    const decrypter = new Decrypter();
    decrypter.addIdentity(keyLine);
    const tarball = gunzipSync(await decrypter.decrypt(bytes));
    const opened = join(work, "opened");
    writeFileSync(join(work, "archive.tar"), tarball, { mode: 0o600 });
    mkdirSync(opened, { mode: 0o700 });
    await new Promise<void>((resolve, reject) => {
      spawn("tar", ["-xf", join(work, "archive.tar"), "-C", opened]).on("close", (code) => (code === 0 ? resolve() : reject(new Error(`tar exited ${code}`))));
    });
    const factors = readFileSync(join(opened, "db", "totp_factors.jsonl"), "utf8").trim().split("\n").filter(Boolean);
    const secrets = factors.map((l) => String((JSON.parse(l) as Record<string, unknown>).secret ?? ""));
    const plain = secrets.filter((s) => !s.startsWith("v1:") || s.includes(cast.victim.totpSecret) || s.includes(world.demo.adminTotpKey));
    check.expect(
      "authenticator keys are sealed in the database (as the archive's rows show)",
      secrets.length >= 2 && plain.length === 0,
      `${secrets.length} rows, ${plain.length} not sealed`,
    );

    // A restore with another key refuses before writing anything.
    const otherKey = join(work, "other-key.txt");
    await npm(["backup", "--", "--new-key", otherKey], {});
    const target = join(work, "restored");
    const restore = await npm(["restore", "--", archive, "--key-file", otherKey], { DATA_DIR: target });
    const written = (() => {
      try {
        return readdirSync(target).length;
      } catch {
        return 0;
      }
    })();
    check.expect("a restore with the wrong key is refused and writes nothing", restore.code !== 0 && written === 0, `exit ${restore.code}, ${written} entries in the target`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
