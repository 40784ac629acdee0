import { ShieldAlert } from "lucide-react";
import { createContext, useContext, useEffect, type ReactNode } from "react";
import { Link } from "wouter";
import type { User } from "@shared/auth";
import { ADMIN_SECOND_FACTOR_MESSAGE } from "@shared/security-rules";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { goToLogin } from "@/lib/api";
import { useUser } from "@/lib/current-user";

// The one gate of the pages that need a signed-in person (and of the admin pages): each page used
// to carry its own copy of the sign-in redirect. The router wraps a page in it, so the page's chunk
// is not even loaded for a visitor who is about to be sent to sign in.

const SignedInUserContext = createContext<User | null>(null);

/** The signed-in person, inside a page the router wrapped in <ProtectedRoute>. */
export function useSignedInUser(): User {
  const user = useContext(SignedInUserContext);
  if (!user) throw new Error("useSignedInUser is only for pages wrapped in <ProtectedRoute>");
  return user;
}

function PageSpinner() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center" aria-busy="true">
      <Spinner iconClassName="size-8" label="Loading" />
    </div>
  );
}

function AccessDenied() {
  return (
    <div className="mx-auto grid max-w-md justify-items-center gap-4 px-4 py-24 text-center">
      <ShieldAlert className="size-12 text-destructive" aria-hidden="true" />
      <h1 className="text-3xl font-bold">Access Denied</h1>
      <p className="text-muted-foreground">You don&apos;t have permission to view this page.</p>
      <Button asChild>
        <Link href="/">Go to Home</Link>
      </Button>
    </div>
  );
}

/**
 * An admin signed in with one factor has no admin powers (docs/decisions/068-admin-powers-need-two-factors.md):
 * the admin pages say how to get them instead of opening onto refusals.
 */
function SecondFactorFirst() {
  return (
    <div className="mx-auto max-w-md px-4 py-16">
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h1>Add a second factor first</h1>
          </CardTitle>
          <CardDescription>{ADMIN_SECOND_FACTOR_MESSAGE}</CardDescription>
        </CardHeader>
        <CardContent>
          <Button asChild>
            <a href="/settings/security">Add a second factor</a>
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}

/** For a page that says why to sign in instead of sending the visitor away at once. */
function SignInPrompt({ title, description }: SignInPromptCopy) {
  return (
    <div className="mx-auto max-w-md px-4 py-16">
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h1>{title}</h1>
          </CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent>
          <Button onClick={() => goToLogin()}>Sign In</Button>
        </CardContent>
      </Card>
    </div>
  );
}

function RedirectToSignIn() {
  // Back to this very page (path and query) once signed in.
  useEffect(() => goToLogin(), []);
  return <PageSpinner />;
}

export interface SignInPromptCopy {
  title: string;
  description: string;
}

export interface ProtectedRouteProps {
  children: ReactNode;
  /** Admin pages: an admin on one factor is asked for a second one, anyone else without admin powers sees "Access Denied". */
  role?: "admin";
  /** A visitor sees this prompt with a Sign In button instead of being sent to sign in at once. */
  signInPrompt?: SignInPromptCopy;
}

export function ProtectedRoute({ children, role, signInPrompt }: ProtectedRouteProps) {
  const { user, isLoading } = useUser();
  if (isLoading) return <PageSpinner />;
  if (!user) return signInPrompt ? <SignInPrompt {...signInPrompt} /> : <RedirectToSignIn />;
  if (role === "admin" && !user.isAdmin) return user.adminNeedsSecondFactor ? <SecondFactorFirst /> : <AccessDenied />;
  return <SignedInUserContext value={user}>{children}</SignedInUserContext>;
}
