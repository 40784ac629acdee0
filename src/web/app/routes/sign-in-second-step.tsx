import { useSearch } from "wouter";
import { safeReturnTo } from "@shared/return-to";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { SecondStepForm } from "@/features/auth/components/second-step-form";

/** /sign-in/second-step: after the password (or a reset link), the second factor. */
export default function SignInSecondStepPage() {
  const returnTo = safeReturnTo(new URLSearchParams(useSearch()).get("returnTo"));
  return (
    <div className="mx-auto flex max-w-md flex-col px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h1 className="text-2xl">Confirm it is you</h1>
          </CardTitle>
          <CardDescription>Your account has a second factor. Type the code from your authenticator app, or use a passkey.</CardDescription>
        </CardHeader>
        <CardContent>
          {/* A full-page navigation, so every cached query starts fresh as the signed-in user. */}
          <SecondStepForm onSignedIn={() => window.location.assign(returnTo)} />
        </CardContent>
      </Card>
    </div>
  );
}
