import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { PasswordInput } from "@/components/ui/password-input";
import { errorMessage, setStepUpPrompt } from "@/lib/api";
import { useSecurityOverview } from "../api/account-security";
import { stepUpWithPasskey, stepUpWithPassword } from "../api/second-step";

/**
 * The one "confirm it is you" prompt (docs/decisions/050-step-up-and-security-log.md): a sensitive
 * change answered 403 step_up_required, so the person types their password or uses a passkey, and
 * the API client sends the change again.
 */
export function StepUpPrompt() {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const settle = useRef<((ok: boolean) => void) | null>(null);

  useEffect(() => {
    setStepUpPrompt(
      () =>
        new Promise<boolean>((resolve) => {
          settle.current = resolve;
          setPassword("");
          setError(null);
          setOpen(true);
        }),
    );
    return () => setStepUpPrompt(null);
  }, []);

  const finish = (ok: boolean) => {
    setOpen(false);
    settle.current?.(ok);
    settle.current = null;
  };
  const attempt = (proof: () => Promise<unknown>) => {
    setPending(true);
    setError(null);
    proof().then(
      () => finish(true),
      (e: unknown) => setError(errorMessage(e, "That did not work. Try again.")),
    ).finally(() => setPending(false));
  };

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? setOpen(true) : finish(false))}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Confirm it is you</DialogTitle>
          <DialogDescription>This change protects your account and your money. Type your password, or use a passkey, to go on.</DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            attempt(() => stepUpWithPassword(password));
          }}
        >
          <FormField label="Your password" required error={error ?? undefined}>
            <PasswordInput autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          </FormField>
          <DialogFooter className="gap-2">
            <Button type="button" variant="outline" disabled={pending} onClick={() => attempt(stepUpWithPasskey)}>
              Use a passkey
            </Button>
            <Button type="submit" disabled={pending || password === ""}>
              Confirm
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** For admins (who must) and providers (who should) without a second factor: a link to add one. */
export function SecondFactorBanner({ admin }: { admin: boolean }) {
  const overview = useSecurityOverview();
  if (!overview.data || overview.data.totp || overview.data.passkeys.length > 0) return null;
  return (
    <div role="region" aria-label="Add a second factor" className="border-b border-warning/50 bg-warning/10 text-warning">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-2 text-sm sm:px-6">
        <p className="min-w-0 flex-1 break-words">
          {admin
            ? "Admin pages stay closed until you add a second factor: an authenticator app or a passkey."
            : "Protect your earnings: add a second factor, so a stolen password alone cannot open your account."}
        </p>
        <Button asChild size="sm" variant="outline">
          <a href="/settings/security">Add a second factor</a>
        </Button>
      </div>
    </div>
  );
}
