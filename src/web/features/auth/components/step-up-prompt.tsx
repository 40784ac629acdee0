import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { PasswordInput } from "@/components/ui/password-input";
import { errorMessage } from "@/lib/api";
import { stepUpWithPasskey, stepUpWithPassword } from "../api/second-step";

/**
 * The one "confirm it is you" prompt (docs/decisions/050-step-up-and-security-log.md): a sensitive
 * change answered 403 step_up_required, so the person types their password or uses a passkey, and
 * the API client sends the change again. Mounted, open, only when a change asks for it
 * (app/layout/account-security.tsx), so its code is not in any page's first load.
 */
export function StepUpPrompt({ onDone }: { onDone: (ok: boolean) => void }) {
  const [open, setOpen] = useState(true);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const finish = (ok: boolean) => {
    setOpen(false);
    onDone(ok);
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
