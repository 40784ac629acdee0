import { describe, expect, it } from "vitest";
import { eq, like } from "drizzle-orm";
import { rateLimits } from "../../db/schema/users.js";
import { EMAIL_SIGNAL_FAILURES, IP_MAX_FAILURES, PAIR_FREE_ATTEMPTS, PAIR_MAX_DELAY_S, pairDelaySeconds } from "./sign-in-throttle.js";
import { TEST_ORIGIN, useTestApp } from "../../../../test/create-test-app.js";

// docs/product.md "Sign-in limits": failures from one address slow that address down for that
// e-mail and, past a ceiling, for every e-mail; they never stop the owner on another address.
// Each test uses its own addresses and e-mails, so the shared counters do not meet.

const t = await useTestApp();
const PASSWORD = "orchid kettle planet";

async function account(email: string): Promise<void> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/auth/register",
    payload: { email, password: PASSWORD, firstName: "Owen", lastName: "Owner" },
    headers: { origin: TEST_ORIGIN },
    remoteAddress: "127.0.9.9",
  });
  expect(res.statusCode).toBe(202);
}

const signIn = (remoteAddress: string, email: string, password: string) =>
  t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password }, remoteAddress });

const retryAfter = (res: { headers: Record<string, unknown> }) => Number(res.headers["retry-after"]);

describe("sign-in throttling", () => {
  it("the delay after the free attempts doubles and is capped", () => {
    expect([4, 5, 6, 7, 8].map(pairDelaySeconds)).toEqual([0, 1, 2, 4, 8]);
    expect(pairDelaySeconds(100)).toBe(PAIR_MAX_DELAY_S);
  });

  it("an attacker failing 100 times on one address cannot stop the owner signing in on another", async () => {
    await account("owner@example.test");
    const statuses = new Set<number>();
    for (let i = 0; i < 100; i++) {
      const res = await signIn("127.0.0.2", "owner@example.test", `guess number ${i}`);
      statuses.add(res.statusCode);
      t.clock.advance(1000);
    }
    // Both happened: real wrong-password answers and slow-downs.
    expect([...statuses].sort()).toEqual([401, 429]);

    const owner = await signIn("127.0.0.3", "owner@example.test", PASSWORD);
    expect(owner.statusCode).toBe(200);
    expect(owner.json().email).toBe("owner@example.test");
  });

  it("failures for one e-mail from many addresses are only a signal: the owner still signs in", async () => {
    await account("famous@example.test");
    for (let i = 0; i < EMAIL_SIGNAL_FAILURES + 5; i++) {
      expect((await signIn(`127.0.1.${i + 1}`, "famous@example.test", `spray guess ${i}`)).statusCode).toBe(401);
    }
    expect((await signIn("127.0.0.3", "famous@example.test", PASSWORD)).statusCode).toBe(200);
  }, 120_000);

  it("slows the (address, e-mail) pair down with a growing Retry-After instead of locking the account", async () => {
    await account("slow@example.test");
    const ip = "127.0.0.4";
    for (let i = 0; i < PAIR_FREE_ATTEMPTS; i++) expect((await signIn(ip, "slow@example.test", `wrong ${i}`)).statusCode).toBe(401);

    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      const blocked = await signIn(ip, "slow@example.test", "wrong again");
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().message).toMatch(/^Too many failed sign-ins for this e-mail\. Please wait \d+ seconds? before trying again/);
      const wait = retryAfter(blocked);
      waits.push(wait);
      // Still blocked one second early, even with the right password: the pair waits its turn.
      t.clock.advance((wait - 1) * 1000);
      if (wait > 1) expect((await signIn(ip, "slow@example.test", PASSWORD)).statusCode).toBe(429);
      t.clock.advance(1000);
      expect((await signIn(ip, "slow@example.test", `wrong after wait ${i}`)).statusCode).toBe(401);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16]);
  });

  it("a successful sign-in clears that pair's failures", async () => {
    await account("clear@example.test");
    const ip = "127.0.0.5";
    for (let i = 0; i < PAIR_FREE_ATTEMPTS; i++) await signIn(ip, "clear@example.test", `wrong ${i}`);
    expect((await signIn(ip, "clear@example.test", PASSWORD)).statusCode).toBe(429);
    t.clock.advance(1000);
    expect((await signIn(ip, "clear@example.test", PASSWORD)).statusCode).toBe(200);

    const rows = await t.database.db.select().from(rateLimits).where(like(rateLimits.key, `login:pair:${ip}:%`));
    expect(rows).toEqual([]);
    // A fresh start: the next typo costs nothing.
    expect((await signIn(ip, "clear@example.test", "one typo here")).statusCode).toBe(401);
    expect((await signIn(ip, "clear@example.test", PASSWORD)).statusCode).toBe(200);
  });

  it("parallel guesses cannot slip past the free attempts", async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => signIn("127.0.0.6", "parallel@example.test", `parallel guess ${i}`)),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(PAIR_FREE_ATTEMPTS);
    expect(codes.filter((c) => c === 429)).toHaveLength(12 - PAIR_FREE_ATTEMPTS);
  });

  it("caps failures per address across many e-mails (credential stuffing), for that address only", async () => {
    await account("bystander@example.test");
    const ip = "127.0.0.7";
    const codes: number[] = [];
    for (let i = 0; i < IP_MAX_FAILURES + 3; i++) {
      codes.push((await signIn(ip, `stuffed-${i}@example.test`, "Summer2024!stuff")).statusCode);
    }
    expect(codes.slice(0, IP_MAX_FAILURES).every((c) => c === 401)).toBe(true);
    expect(codes.slice(IP_MAX_FAILURES)).toEqual([429, 429, 429]);

    const blocked = await signIn(ip, "bystander@example.test", PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Too many failed sign-ins from your network\. Please try again in 15 minutes\.$/);
    expect(retryAfter(blocked)).toBe(15 * 60);
    // Another address is not touched.
    expect((await signIn("127.0.0.8", "bystander@example.test", PASSWORD)).statusCode).toBe(200);
    // The ceiling is a window: it lifts after 15 minutes.
    t.clock.advance(15 * 60_000);
    expect((await signIn(ip, "bystander@example.test", PASSWORD)).statusCode).toBe(200);
  }, 120_000);

  it("successful sign-ins do not count toward the address's ceiling (a shared office keeps working)", async () => {
    await account("office@example.test");
    const ip = "127.0.0.10";
    // The office has already had its share of typos in this window: one failure short of the ceiling.
    await signIn(ip, "typo@example.test", "first typo here");
    await t.database.db.update(rateLimits).set({ count: IP_MAX_FAILURES - 1 }).where(eq(rateLimits.key, `login:ip-failures:${ip}`));
    for (let i = 0; i < 5; i++) expect((await signIn(ip, "office@example.test", PASSWORD)).statusCode).toBe(200);
    expect((await signIn(ip, "typo@example.test", "second typo here")).statusCode).toBe(401);
    expect((await signIn(ip, "typo@example.test", "third typo here")).statusCode).toBe(429);
  });
});
