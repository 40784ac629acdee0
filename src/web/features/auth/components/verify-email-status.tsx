import { useEffect, useRef } from "react";
import { Link } from "wouter";
import type { User } from "@shared/auth";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/api";
import { useResendVerification } from "../api/resend-verification";
import { useVerifyEmail } from "../api/verify-email";

interface Props {
  token: string | null;
  /** Whether someone is signed in on this device: they can ask for a new link from here. */
  signedIn: boolean;
  /** Called once the address is confirmed and this device is signed in. */
  onDone: (user: User) => void;
}

function ResendLink() {
  const resend = useResendVerification();
  return (
    <div className="space-y-3">
      <Button type="button" onClick={() => resend.mutate()} disabled={resend.isPending}>
        {resend.isPending ? "Sending..." : "Send a new link"}
      </Button>
      {resend.isSuccess && (
        <p role="status" className="text-sm">
          {resend.data.message}
        </p>
      )}
      {resend.isError && (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(resend.error, "We could not send a link. Please try again in a moment.")}
        </p>
      )}
    </div>
  );
}

/** Opens the e-mailed link: confirms the address (or the new address) and signs in here. */
export function VerifyEmailStatus({ token, signedIn, onDone }: Props) {
  const verify = useVerifyEmail();
  // Once per page: a link works once, so a second request (React's development double effect)
  // would turn a success into "already used".
  const sent = useRef(false);
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    verify.mutate({ token }, { onSuccess: onDone });
  }, [token, verify, onDone]);

  if (token && !verify.isError) {
    return (
      <div className="flex items-center gap-3" aria-busy="true">
        <Spinner />
        <p>{verify.isSuccess ? "Confirmed. Taking you to your dashboard..." : "Confirming your e-mail address..."}</p>
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <Alert variant="destructive">
        <AlertDescription>
          {token ? errorMessage(verify.error, "We could not confirm your address.") : "This link is incomplete. Open it again from the e-mail."}
        </AlertDescription>
      </Alert>
      {signedIn ? (
        <ResendLink />
      ) : (
        <p className="text-sm text-muted-foreground">
          Links work once, for 24 hours.{" "}
          <Link href="/sign-in" className="font-medium text-primary underline-offset-4 hover:underline">
            Sign in
          </Link>{" "}
          with your password to send yourself a new one.
        </p>
      )}
    </div>
  );
}
