import { useCallback } from "react";
import { useSearch } from "wouter";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { VerifyEmailStatus } from "@/features/auth/components/verify-email-status";
import { useUser } from "@/lib/current-user";

/** /verify-email?token=…: the sign-up link or the new-address link; confirms and signs in. */
export default function VerifyEmailPage() {
  const token = new URLSearchParams(useSearch()).get("token");
  const { isAuthenticated } = useUser();
  // A full-page navigation, so every cached query starts fresh as the signed-in person.
  const done = useCallback(() => window.location.assign("/dashboard"), []);
  return (
    <div className="mx-auto flex max-w-md flex-col px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h1 className="text-2xl">Confirm your e-mail address</h1>
          </CardTitle>
        </CardHeader>
        <CardContent>
          <VerifyEmailStatus token={token} signedIn={isAuthenticated} onDone={done} />
        </CardContent>
      </Card>
    </div>
  );
}
