import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

// node's scrypt with a per-user 16-byte salt (docs/decisions/003-sessions-and-sign-in.md).
// N=2^15, r=8, p=1 is OWASP's recommended minimum; the parameters are stored with the hash so
// they can be raised later without breaking existing passwords.
const PARAMS = { N: 32768, r: 8, p: 1, keylen: 32 };
const MAXMEM = 64 * 1024 * 1024;

function scryptAsync(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, PARAMS.keylen, { N: PARAMS.N, r: PARAMS.r, p: PARAMS.p, maxmem: MAXMEM });
  return ["scrypt", PARAMS.N, PARAMS.r, PARAMS.p, salt.toString("base64"), key.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const key = await scryptAsync(password, Buffer.from(salt, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: MAXMEM,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash of a random password: login for an unknown e-mail costs the same time as a wrong one. */
export const DUMMY_HASH_PROMISE = hashPassword(randomBytes(16).toString("hex"));
