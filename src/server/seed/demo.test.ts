import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/create-test-app.js";
import { users } from "../db/schema/users.js";
import { hashPassword } from "../features/auth/passwords.js";
import { refusePublishedDemoLogins, seedDemoData } from "./demo.js";

// A start where others may reach the server refuses a database that still holds the published
// demo logins (docs/decisions/066-demo-data-on-loopback-only.md): an earlier local `npm start` on the
// same DATA_DIR seeded them, and not seeding again would leave its admin open to anyone.

const t = await useTestApp();
const EXPOSURE = "NODE_ENV is production";

describe("published demo logins", () => {
  it("stop a start that others may reach until each has another password", async () => {
    expect(await refusePublishedDemoLogins(t.database.db, EXPOSURE)).toBeNull();
    expect(await seedDemoData(t.database.db, t.app.ctx.secrets, t.clock.now())).toBe(true);

    const refusal = await refusePublishedDemoLogins(t.database.db, EXPOSURE);
    expect(refusal).toContain("(admin@errandly.test, poster@errandly.test, provider@errandly.test), and NODE_ENV is production");
    expect(refusal).toMatch(/Start on an empty database/);

    await t.database.db
      .update(users)
      .set({ passwordHash: await hashPassword("a-password-only-the-admin-knows") })
      .where(eq(users.email, "admin@errandly.test"));
    expect(await refusePublishedDemoLogins(t.database.db, EXPOSURE)).toContain("(poster@errandly.test, provider@errandly.test)");

    await t.database.db.update(users).set({ passwordHash: null }).where(eq(users.email, "poster@errandly.test"));
    await t.database.db.delete(users).where(eq(users.email, "provider@errandly.test"));
    expect(await refusePublishedDemoLogins(t.database.db, EXPOSURE)).toBeNull();
  });
});
