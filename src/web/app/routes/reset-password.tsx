import { useSearch } from "wouter";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ResetPasswordForm } from "@/features/auth/components/reset-password-form";

/** /reset-password?token=…: the e-mailed link; a new password signs this device in. */
export default function ResetPasswordPage() {
  const token = new URLSearchParams(useSearch()).get("token");
  return (
    <div className="mx-auto flex max-w-md flex-col px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h1 className="text-2xl">Choose a new password</h1>
          </CardTitle>
          <CardDescription>Every other device will be signed out.</CardDescription>
        </CardHeader>
        <CardContent>
          {/* A full-page navigation, so every cached query starts fresh as the signed-in person. */}
          <ResetPasswordForm token={token} onDone={() => window.location.assign("/dashboard")} />
        </CardContent>
      </Card>
    </div>
  );
}
