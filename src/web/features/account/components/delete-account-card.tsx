import { useState, type FormEvent } from "react";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { ApiError, errorMessage } from "@/lib/api";
import { useAccount } from "../api/get-account";
import { useDeleteAccount } from "../api/delete-account";

/**
 * Deleting the account, after a dialog that says what happens and asks for the password (or, for
 * single-sign-on accounts, the e-mail typed out). docs/decisions/021-account-settings-deletion-and-export.md.
 */
export function DeleteAccountCard({ onDeleted }: { onDeleted: () => void }) {
  const account = useAccount();
  const remove = useDeleteAccount();
  const [open, setOpen] = useState(false);
  const [secret, setSecret] = useState("");
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [blocked, setBlocked] = useState<string | null>(null);
  const hasPassword = account.data?.hasPassword ?? true;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!secret.trim()) {
      setFieldError(hasPassword ? "Enter your password to confirm." : "Type your e-mail address to confirm.");
      return;
    }
    remove.mutate(hasPassword ? { password: secret } : { email: secret }, {
      onSuccess: onDeleted,
      onError: (error) => {
        if (error instanceof ApiError && error.status === 409) {
          setOpen(false);
          setBlocked(error.serverMessage);
        } else setFieldError(errorMessage(error, "Could not delete your account. Please try again."));
      },
    });
  }

  return (
    <Card className="border-destructive/50">
      <CardHeader>
        <CardTitle asChild className="text-xl">
          <h2>Delete my account</h2>
        </CardTitle>
        <CardDescription>This cannot be undone.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {blocked ? (
          <Alert variant="destructive">
            <AlertDescription>{blocked}</AlertDescription>
          </Alert>
        ) : null}
        <div>
          <Button
            type="button"
            variant="destructive"
            onClick={() => {
              setSecret("");
              setFieldError(undefined);
              setOpen(true);
            }}
          >
            Delete my account
          </Button>
        </div>
      </CardContent>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Delete your account?</DialogTitle>
            <DialogDescription>What happens when you delete your account:</DialogDescription>
          </DialogHeader>
          <ul className="list-disc space-y-1 pl-5 text-sm">
            <li>Your name becomes &quot;Deleted user&quot;; your e-mail, password, photo and provider details are erased.</li>
            <li>You are signed out on every device and cannot sign in to this account again.</li>
            <li>Your open tasks are cancelled. Your notifications and e-mail settings are deleted.</li>
            <li>Finished tasks, payments, payouts and review ratings stay, because other people rely on them; they show &quot;Deleted user&quot;.</li>
          </ul>
          <form onSubmit={submit} noValidate className="grid gap-4">
            {hasPassword ? (
              <FormField label="Your password" required error={fieldError}>
                <PasswordInput autoComplete="current-password" value={secret} onChange={(e) => setSecret(e.target.value)} />
              </FormField>
            ) : (
              <FormField label={`Type your e-mail address (${account.data?.email ?? ""})`} required error={fieldError}>
                <Input type="email" autoComplete="off" value={secret} onChange={(e) => setSecret(e.target.value)} />
              </FormField>
            )}
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setOpen(false)}>
                Keep my account
              </Button>
              <Button type="submit" variant="destructive" disabled={remove.isPending}>
                {remove.isPending ? "Deleting..." : "Delete my account for good"}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
