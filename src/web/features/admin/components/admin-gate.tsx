import { ShieldAlert } from "lucide-react";
import { useEffect, type ReactNode } from "react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { goToLogin } from "@/lib/api";

/** Spec §2 Admin dashboard access: sign-in redirect, spinner, or 'Access Denied' for non-admins. */
export function AdminGate({
  user,
  isLoading,
  returnTo,
  children,
}: {
  user: { role: string } | null;
  isLoading: boolean;
  returnTo: string;
  children: ReactNode;
}) {
  useEffect(() => {
    if (!isLoading && !user) goToLogin(returnTo);
  }, [isLoading, user, returnTo]);

  if (isLoading || !user) {
    return (
      <div className="flex min-h-[50vh] items-center justify-center">
        <Spinner iconClassName="size-8" />
      </div>
    );
  }
  if (user.role !== "admin") {
    return (
      <div className="mx-auto grid max-w-md justify-items-center gap-4 px-4 py-24 text-center">
        <ShieldAlert className="size-12 text-destructive" aria-hidden="true" />
        <h1 className="text-3xl font-bold">Access Denied</h1>
        <p className="text-muted-foreground">You don&apos;t have permission to access the admin dashboard.</p>
        <Button asChild>
          <Link href="/">Go to Home</Link>
        </Button>
      </div>
    );
  }
  return children;
}
