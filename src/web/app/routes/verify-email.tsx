import { useSearch } from "wouter";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { VerifyEmailStatus } from "@/features/auth/components/verify-email-status";
import { useUser } from "@/lib/current-user";

/** /verify-email?token=…: the sign-up link or the new-address link; confirms, signs in, and leads back where the person was going. */
export default function VerifyEmailPage() {
  const token = new URLSearchParams(useSearch()).get("token");
  const { isAuthenticated } = useUser();
  return (
    <div className="mx-auto flex max-w-md flex-col px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h1 className="text-2xl">Confirm your e-mail address</h1>
          </CardTitle>
        </CardHeader>
        <CardContent>
          <VerifyEmailStatus token={token} signedIn={isAuthenticated} />
        </CardContent>
      </Card>
    </div>
  );
}
