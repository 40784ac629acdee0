import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { totpFactors } from "../db/schema/security.js";
import { isSealed, SecretUnreadable, type SecretBox } from "./secret-box.js";

// The columns kept sealed (docs/decisions/069-secrets-at-rest-and-encrypted-backups.md): an
// authenticator app's key, which the server must read back to check a code, so it cannot be
// hashed as passwords, recovery codes and session tokens are. Every start seals the plain values
// an older version wrote, re-seals those under a previous key, and refuses to go on when a value
// opens with no key it has, so a wrong key stops the start rather than every sign-in after it.

/** The additional data an authenticator app's key is sealed with: its row. */
export const totpSecretAad = (userId: string): string => `totp_factors.secret:${userId}`;

/** Rows read at a time: bounded memory however many accounts have an app. */
const BATCH_ROWS = 1_000;

/** The start's refusal: its message is the sentence the operator reads. */
export class SecretsKeyMismatch extends Error {}

export interface ResealCounts {
  /** Plain values sealed under the current key. */
  sealed: number;
  /** Values that opened with a previous key, sealed again under the current one. */
  resealed: number;
  /** Values no key of the box opens. */
  unreadable: number;
}

/**
 * Brings every sealed column to the box's current key, inside the caller's transaction. Each row is
 * written by a conditional UPDATE on the value read, so a row changed meanwhile is left as its
 * writer made it (a writer that has the box seals under the current key already).
 */
export async function resealSecrets(tx: Db, box: SecretBox): Promise<ResealCounts> {
  const counts: ResealCounts = { sealed: 0, resealed: 0, unreadable: 0 };
  let after: string | null = null;
  for (;;) {
    const rows = await tx
      .select({ userId: totpFactors.userId, secret: totpFactors.secret })
      .from(totpFactors)
      .where(after === null ? undefined : gt(totpFactors.userId, after))
      .orderBy(asc(totpFactors.userId))
      .limit(BATCH_ROWS);
    for (const row of rows) {
      const aad = totpSecretAad(row.userId);
      let next: string;
      if (isSealed(row.secret)) {
        let opened: { plain: string; current: boolean };
        try {
          opened = box.unseal(row.secret, aad);
        } catch (err) {
          if (!(err instanceof SecretUnreadable)) throw err;
          counts.unreadable++;
          continue;
        }
        if (opened.current) continue;
        next = box.seal(opened.plain, aad);
        counts.resealed++;
      } else {
        next = box.seal(row.secret, aad);
        counts.sealed++;
      }
      await tx
        .update(totpFactors)
        .set({ secret: next })
        .where(and(eq(totpFactors.userId, row.userId), eq(totpFactors.secret, row.secret)));
    }
    const last = rows.at(-1);
    if (!last || rows.length < BATCH_ROWS) break;
    after = last.userId;
  }
  return counts;
}

/** The operator's sentence for values the box cannot open. */
function mismatchMessage(unreadable: number, box: SecretBox): string {
  const what = unreadable === 1 ? "1 authenticator-app key" : `${unreadable} authenticator-app keys`;
  return (
    `The database holds ${what} that ${box.source} cannot decrypt: another key sealed ${unreadable === 1 ? "it" : "them"}. ` +
    "Start with that key (the same SECRETS_KEY on every instance, or the secrets.key of the DATA_DIR that sealed them), " +
    'and after changing the key give the old one as SECRETS_KEY_PREVIOUS (docs/operations.md, "Secrets at rest").'
  );
}

/**
 * The start's pass (main.ts, after the migrations): one transaction under an advisory lock, so
 * instances starting together take turns and the later ones find nothing left to do. Nothing is
 * kept when a value does not open: the transaction rolls back and the start is refused.
 */
export async function protectSecretsAtRest(db: Db, box: SecretBox): Promise<ResealCounts> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('errandly:secrets-at-rest'))`);
    const counts = await resealSecrets(tx, box);
    if (counts.unreadable > 0) throw new SecretsKeyMismatch(mismatchMessage(counts.unreadable, box));
    return counts;
  });
}
