import { eq } from "drizzle-orm";
import type { User } from "../../../shared/auth.js";
import type { Db } from "../../db/client.js";
import { users } from "../../db/schema/users.js";
import type { SessionUser, UserRow } from "./sessions.js";

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row ?? null;
}

/** The API's user answer: both spellings of the name (spec §3), never the password hash. */
export function toUserView(user: Pick<SessionUser, "id" | "email" | "firstName" | "lastName" | "profileImageUrl" | "role" | "createdAt">): User {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    first_name: user.firstName,
    last_name: user.lastName,
    name: `${user.firstName} ${user.lastName}`.trim(),
    profileImageUrl: user.profileImageUrl,
    role: user.role,
    isAdmin: user.role === "admin",
    createdAt: user.createdAt.toISOString(),
  };
}
