import type { User } from "@shared/auth";
import type { TaskViewer } from "@shared/task-lifecycle";
import { useUser } from "@/lib/current-user";
import { useProviderVerified } from "../api/get-provider-verification";

/** The signed-in person as the task lifecycle sees them, and their role for the pages' provider tools. */
export type PageViewer = TaskViewer & Pick<User, "role">;

/** The signed-in person as the task lifecycle sees them; null when signed out. */
export function useTaskViewer(): { viewer: PageViewer | null; isLoading: boolean } {
  const { user, isLoading } = useUser();
  const providerRole = user?.role === "provider" || user?.role === "both";
  const verification = useProviderVerified(providerRole);
  if (!user) return { viewer: null, isLoading };
  return {
    viewer: { id: user.id, role: user.role, isAdmin: user.isAdmin, providerVerified: verification.data === true },
    isLoading: isLoading || (providerRole && verification.isLoading),
  };
}
