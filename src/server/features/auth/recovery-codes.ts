import { createHash, randomBytes } from "node:crypto";
import { and, count, eq, isNull } from "drizzle-orm";
import { RECOVERY_CODE_COUNT } from "../../../shared/security-rules.js";
import type { Db } from "../../db/client.js";
import { recoveryCodes } from "../../db/schema/security.js";

// Recovery codes: ten single-use codes of 50 random bits each, shown once. Only their SHA-256 is
// stored: unlike a password a code is random, so it cannot be guessed from a list and a slow hash
// would only cost time at each use (docs/decisions/049-second-factors.md).

/** 32 letters and digits, so each byte's low five bits pick one without bias. */
const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

function newCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => ALPHABET[b & 31]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** Spaces, dashes and case do not matter when the person types one back. */
function hashCode(code: string): string {
  return createHash("sha256").update(code.toLowerCase().replace(/[\s-]/g, "")).digest("hex");
}

export function looksLikeRecoveryCode(code: string): boolean {
  return /^[a-z0-9]{10}$/i.test(code.replace(/[\s-]/g, ""));
}

/** Replaces every code of the account with ten new ones, and hands them back (the only time they are readable). */
export async function replaceRecoveryCodes(db: Db, userId: string, now: Date): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashCode(code), createdAt: now })));
  return codes;
}

export async function recoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}

/**
 * Uses a code once (one conditional UPDATE): how many are left afterwards; "used" when it is one of
 * the account's codes that was used before (the person is told so, not that it is wrong); null
 * when it is not one of the account's codes at all.
 */
export async function useRecoveryCode(db: Db, userId: string, code: string, now: Date): Promise<number | "used" | null> {
  if (!looksLikeRecoveryCode(code)) return null;
  const mine = and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hashCode(code)));
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(and(mine, isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  if (used.length > 0) return recoveryCodesLeft(db, userId);
  // Only someone who holds the code learns it was used: a 50-bit code is not found by guessing.
  const [before] = await db.select({ id: recoveryCodes.id }).from(recoveryCodes).where(mine).limit(1);
  return before ? "used" : null;
}
