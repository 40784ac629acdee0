import { useEffect, useRef, useState } from "react";
import { zodResolver } from "@hookform/resolvers/zod";
import { MailCheck } from "lucide-react";
import { useWatch } from "react-hook-form";
import { Link } from "wouter";
import { z } from "zod";
import { passwordSchema, VERIFY_CHOOSE_PASSWORD_MESSAGE, type VerifiedEmailResponse } from "@shared/auth";
import { PASSWORD_MIN_LENGTH } from "@shared/constants";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { PasswordInput } from "@/components/ui/password-input";
import { PasswordStrength } from "@/components/ui/password-strength";
import { Spinner } from "@/components/ui/spinner";
import { ApiError, errorMessage } from "@/lib/api";
import { useSchemaForm } from "@/lib/schema-form";
import { useResendVerification } from "../api/resend-verification";
import { useVerifyEmail } from "../api/verify-email";

interface Props {
  token: string | null;
  /** Whether someone is signed in on this device: they can ask for a new link from here. */
  signedIn: boolean;
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

/** Where the link leads next, in words: back to what the person was doing when they signed up. */
function continueLabel(returnTo: string): string {
  if (returnTo.startsWith("/become-provider")) return "Continue your provider application";
  if (returnTo.startsWith("/settings")) return "Back to your settings";
  if (returnTo === "/dashboard") return "Go to your dashboard";
  return "Continue where you left off";
}

function Confirmed({ result }: { result: VerifiedEmailResponse }) {
  return (
    <div className="space-y-4" role="status">
      <p className="flex items-start gap-2">
        <MailCheck className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
        <span>
          <span className="font-medium break-all">{result.email}</span> is confirmed as your address, and you are signed in.
        </span>
      </p>
      {/* A full-page navigation, so every cached query starts fresh as the signed-in person. */}
      <Button asChild className="w-full">
        <a href={result.returnTo}>{continueLabel(result.returnTo)}</a>
      </Button>
    </div>
  );
}

/** The link was opened away from the browser that signed up: whoever holds the inbox sets the password (decision 044). */
function ChoosePassword({ token, verify }: { token: string; verify: ReturnType<typeof useVerifyEmail> }) {
  const form = useSchemaForm<{ password: string }>({ resolver: zodResolver(choosePasswordSchema), defaultValues: { password: "" } });
  const password = useWatch({ control: form.control, name: "password" });
  // What the server refused that no field shows; the policy's refusal of the password goes under it.
  const [refusal, setRefusal] = useState<string | null>(null);
  const refused = verify.isError && !choosePasswordAsked(verify.error) && refusal;
  const submit = form.handleSubmit(({ password }) =>
    verify.mutate({ token, password }, { onError: (error) => setRefusal(form.showServerErrors(error, "That did not work. Please try again in a moment.")) }),
  );
  return (
    <form className="space-y-4" noValidate onSubmit={(event) => void submit(event)}>
      <p>{VERIFY_CHOOSE_PASSWORD_MESSAGE}</p>
      {refused && (
        <Alert variant="destructive">
          <AlertDescription>{refusal}</AlertDescription>
        </Alert>
      )}
      <div className="grid gap-2">
        <FormField
          label="Choose a password"
          required
          description={`At least ${PASSWORD_MIN_LENGTH} characters, hard to guess. Anyone else signed in to this account will be signed out.`}
          error={form.formState.errors.password?.message}
        >
          <PasswordInput autoComplete="new-password" {...form.register("password", { onChange: () => verify.reset() })} />
        </FormField>
        <PasswordStrength password={password} />
      </div>
      <Button type="submit" className="w-full" disabled={verify.isPending}>
        {verify.isPending ? "Confirming..." : "Confirm my address and sign in"}
      </Button>
    </form>
  );
}

const choosePasswordSchema = z.object({ password: passwordSchema });

function choosePasswordAsked(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409 && error.serverMessage === VERIFY_CHOOSE_PASSWORD_MESSAGE;
}

/** Opens the e-mailed link: confirms the address (or the new address) and signs in here. */
export function VerifyEmailStatus({ token, signedIn }: Props) {
  const verify = useVerifyEmail();
  // Once per page: a link works once, so a second request (React's development double effect)
  // would turn a success into "already used".
  const sent = useRef(false);
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    verify.mutate({ token }, { onError: (error) => setAsked(choosePasswordAsked(error)) });
  }, [token, verify]);

  if (verify.isSuccess) return <Confirmed result={verify.data} />;
  if (token && asked) return <ChoosePassword token={token} verify={verify} />;
  if (token && !verify.isError) {
    return (
      <div className="flex items-center gap-3" aria-busy="true">
        <Spinner />
        <p>Confirming your e-mail address...</p>
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
