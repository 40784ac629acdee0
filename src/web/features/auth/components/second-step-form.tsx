import { useState } from "react";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { errorMessage } from "@/lib/api";
import { signInWithPasskey, verifySecondFactor } from "../api/second-step";

/**
 * The second step of signing in (docs/product.md, "Account security"): the code the authenticator
 * app shows, a recovery code, or a passkey. After a recovery code it says how many are left.
 */
export function SecondStepForm({ onSignedIn }: { onSignedIn: () => void }) {
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [codesLeft, setCodesLeft] = useState<number | null>(null);

  const run = async (attempt: () => Promise<{ recoveryCodesLeft?: number }>) => {
    setPending(true);
    setError(null);
    try {
      const result = await attempt();
      if (result.recoveryCodesLeft === undefined) onSignedIn();
      else setCodesLeft(result.recoveryCodesLeft);
    } catch (e) {
      setError(errorMessage(e, "That did not work. Try again, or use another way to confirm it is you."));
    } finally {
      setPending(false);
    }
  };

  if (codesLeft !== null) {
    return (
      <div className="grid gap-4">
        <p role="status">
          You are signed in with a recovery code. You have {codesLeft} {codesLeft === 1 ? "code" : "codes"} left; make new ones in Settings, under
          Security.
        </p>
        <Button type="button" onClick={onSignedIn}>
          Continue
        </Button>
      </div>
    );
  }

  return (
    <div className="grid gap-6">
      <form
        className="grid gap-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void run(() => verifySecondFactor(code));
        }}
      >
        {error && (
          <Alert variant="destructive">
            <AlertDescription>{error}</AlertDescription>
          </Alert>
        )}
        <FormField label="Code" required description="The six-digit code from your authenticator app, or one of your recovery codes.">
          <Input autoComplete="one-time-code" inputMode="text" autoFocus value={code} onChange={(e) => setCode(e.target.value)} />
        </FormField>
        <Button type="submit" disabled={pending || code.trim().length < 6}>
          {pending ? "Checking..." : "Confirm"}
        </Button>
      </form>
      <Button type="button" variant="outline" disabled={pending} onClick={() => void run(signInWithPasskey)}>
        Use a passkey
      </Button>
    </div>
  );
}

/** "Sign in with a passkey": a passkey alone is enough (it is something you hold, unlocked on your device). */
export function PasskeySignInButton({ onSignedIn }: { onSignedIn: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  return (
    <div className="grid gap-2">
      <Button
        type="button"
        variant="outline"
        className="w-full"
        disabled={pending}
        onClick={() => {
          setPending(true);
          setError(null);
          signInWithPasskey().then(onSignedIn, (e: unknown) => {
            setError(errorMessage(e, "Signing in with a passkey did not work. Try again, or use your e-mail and password."));
            setPending(false);
          });
        }}
      >
        Sign in with a passkey
      </Button>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
