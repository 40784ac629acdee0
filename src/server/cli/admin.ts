import { eq } from "drizzle-orm";
import { EnvError, parseEnv } from "../config/env.js";
import { migrateDatabase, openDatabase } from "../db/client.js";
import { databaseServer } from "../db/database-server.js";
import { providerProfiles } from "../db/schema/providers.js";
import { tasks } from "../db/schema/tasks.js";
import { auditLog, users } from "../db/schema/users.js";
import type { Db } from "../db/client.js";

// `npm run admin -- grant EMAIL` makes an existing user an admin; `revoke EMAIL` makes them a
// plain user again. Uses the same configuration as the server (DATABASE_URL or DATA_DIR); with the
// embedded database it joins the server's running PostgreSQL, or starts and stops it if none runs.

const USAGE = "Usage: npm run admin -- grant|revoke EMAIL";

/** What the user is apart from admin: an approved provider (who may also post), or a user. */
async function roleWithoutAdmin(db: Db, email: string): Promise<"user" | "provider" | "both"> {
  const [row] = await db
    .select({ status: providerProfiles.verificationStatus, taskId: tasks.id })
    .from(users)
    .leftJoin(providerProfiles, eq(providerProfiles.userId, users.id))
    .leftJoin(tasks, eq(tasks.userId, users.id))
    .where(eq(users.email, email))
    .limit(1);
  if (row?.status !== "approved") return "user";
  return row.taskId ? "both" : "provider";
}

async function main(argv: string[]): Promise<number> {
  const [command, rawEmail] = argv;
  if ((command !== "grant" && command !== "revoke") || !rawEmail) {
    console.error(USAGE);
    return 2;
  }
  const email = rawEmail.trim().toLowerCase();
  const env = parseEnv(process.env);
  const server = await databaseServer(env, "tool");
  await migrateDatabase(server.url);
  const database = await openDatabase({ databaseUrl: server.url, poolSize: 1 });
  try {
    const role = command === "grant" ? "admin" : await roleWithoutAdmin(database.db, email);
    const [user] = await database.db.update(users).set({ role, updatedAt: new Date() }).where(eq(users.email, email)).returning();
    if (!user) {
      console.error(`No user with e-mail ${email}. They must sign up first.`);
      return 1;
    }
    await database.db.insert(auditLog).values({
      actorId: null,
      action: command === "grant" ? "admin.granted" : "admin.revoked",
      targetType: "user",
      targetId: user.id,
      reason: "command line",
    });
    console.log(`${email} is now ${role === "admin" ? "an admin" : "a regular user"}.`);
    if (role === "admin") {
      // Admins always on two factors (docs/decisions/049-second-factors.md): the admin pages refuse them until then.
      console.log("They must add a second factor (an authenticator app or a passkey) in Settings, under Security, before the admin pages open.");
    }
    return 0;
  } finally {
    await database.close();
    await server.release();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof EnvError ? err.message : err);
    process.exit(1);
  },
);
