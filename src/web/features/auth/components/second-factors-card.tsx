import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/api";
import { useSecurityChanges, useSecurityEvents, useSecurityOverview } from "../api/account-security";

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
const failed = (title: string) => (error: unknown) => toast({ title, description: errorMessage(error, "Please try again."), variant: "destructive" });

/** Recovery codes, shown once: copy them or save them as a file. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = codes.join("\n");
  return (
    <section aria-labelledby="recovery-codes-title" className="grid gap-3 rounded-md border border-warning/50 p-4">
      <h3 id="recovery-codes-title" className="font-semibold">
        Your recovery codes
      </h3>
      <p className="text-sm">
        Each works once, if you lose your phone or passkey. Save them somewhere safe now: we show them only this once.
      </p>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-2 font-mono text-sm">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" onClick={() => void navigator.clipboard.writeText(text).then(() => toast({ title: "Copied", description: "The ten codes are on your clipboard." }))}>
          Copy the codes
        </Button>
        <Button asChild variant="outline">
          <a href={`data:text/plain;charset=utf-8,${encodeURIComponent(`Errandly recovery codes\n\n${text}\n`)}`} download="errandly-recovery-codes.txt">
            Download the codes
          </a>
        </Button>
        <Button type="button" onClick={onDone}>
          I saved them
        </Button>
      </div>
    </section>
  );
}

/** Settings, Security: the authenticator app, passkeys and recovery codes (docs/product.md, "Account security"). */
export function SecondFactorsCard() {
  const overview = useSecurityOverview();
  const changes = useSecurityChanges();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [confirmCode, setConfirmCode] = useState("");
  const [passkeyName, setPasskeyName] = useState("");
  const setup = changes.startTotp.data;
  const data = overview.data;

  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-xl">
          <h2>Second factors</h2>
        </CardTitle>
        <CardDescription>
          {data?.required
            ? "As an admin you must have one: the admin pages stay closed until you add an authenticator app or a passkey."
            : "A second factor keeps your account safe even if someone learns your password."}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {codes && <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />}
        {overview.isLoading || !data ? (
          <Skeleton className="h-24 w-full" />
        ) : (
          <>
            <section aria-labelledby="totp-title" className="grid gap-3">
              <h3 id="totp-title" className="font-semibold">
                Authenticator app
              </h3>
              {data.totp ? (
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <p className="text-sm">Your authenticator app is on. Sign-in asks for its code after your password.</p>
                  <Button type="button" variant="outline" disabled={changes.removeTotp.isPending} onClick={() => changes.removeTotp.mutate(undefined, { onError: failed("Could not remove the app") })}>
                    Remove the app
                  </Button>
                </div>
              ) : setup ? (
                <form
                  className="grid gap-3"
                  onSubmit={(event) => {
                    event.preventDefault();
                    changes.confirmTotp.mutate(confirmCode, {
                      onSuccess: (answer) => {
                        changes.startTotp.reset();
                        setConfirmCode("");
                        if (answer.recoveryCodes) setCodes(answer.recoveryCodes);
                        toast({ title: "Authenticator app added", description: "Sign-in now asks for its code." });
                      },
                    });
                  }}
                >
                  <p className="text-sm">Scan this code with your authenticator app, or type the key by hand. Then type the six-digit code it shows.</p>
                  <img src={`data:image/svg+xml;utf8,${encodeURIComponent(setup.qrSvg)}`} alt="QR code for your authenticator app" className="size-48 bg-white" />
                  <p className="text-sm break-all">
                    Key: <code className="font-mono">{setup.secret}</code>
                  </p>
                  <FormField label="Code from the app" required error={changes.confirmTotp.isError ? errorMessage(changes.confirmTotp.error, "That code is not right.") : undefined}>
                    <Input autoComplete="one-time-code" inputMode="numeric" value={confirmCode} onChange={(e) => setConfirmCode(e.target.value)} />
                  </FormField>
                  <div>
                    <Button type="submit" disabled={changes.confirmTotp.isPending}>
                      Confirm the app
                    </Button>
                  </div>
                </form>
              ) : (
                <div>
                  <Button type="button" disabled={changes.startTotp.isPending} onClick={() => changes.startTotp.mutate(undefined, { onError: failed("Could not start") })}>
                    Add an authenticator app
                  </Button>
                </div>
              )}
            </section>

            <section aria-labelledby="passkeys-title" className="grid gap-3">
              <h3 id="passkeys-title" className="font-semibold">
                Passkeys
              </h3>
              {data.passkeys.length > 0 && (
                <ul aria-label="Your passkeys" className="grid gap-2">
                  {data.passkeys.map((k) => (
                    <li key={k.id} className="flex flex-wrap items-center justify-between gap-3 rounded-md border p-3">
                      <div className="min-w-0">
                        <p className="font-medium break-words">{k.name}</p>
                        <p className="text-sm text-muted-foreground">
                          Added {when(k.createdAt)} · {k.lastUsedAt ? `last used ${when(k.lastUsedAt)}` : "not used yet"}
                        </p>
                      </div>
                      <div className="flex gap-2">
                        <Button
                          type="button"
                          variant="outline"
                          size="sm"
                          aria-label={`Rename passkey ${k.name}`}
                          onClick={() => {
                            const name = window.prompt("A new name for this passkey", k.name);
                            if (name) changes.renamePasskey.mutate({ id: k.id, name }, { onError: failed("Could not rename the passkey") });
                          }}
                        >
                          Rename
                        </Button>
                        <Button type="button" variant="outline" size="sm" aria-label={`Remove passkey ${k.name}`} onClick={() => changes.removePasskey.mutate(k.id, { onError: failed("Could not remove the passkey") })}>
                          Remove
                        </Button>
                      </div>
                    </li>
                  ))}
                </ul>
              )}
              <form
                className="flex flex-wrap items-end gap-3"
                onSubmit={(event) => {
                  event.preventDefault();
                  changes.addPasskey.mutate(passkeyName, {
                    onSuccess: (answer) => {
                      setPasskeyName("");
                      if (answer.recoveryCodes) setCodes(answer.recoveryCodes);
                      toast({ title: "Passkey added", description: "You can sign in with it alone, or use it as your second factor." });
                    },
                    onError: failed("Could not add the passkey"),
                  });
                }}
              >
                <FormField label="Passkey name" description="Such as the device it is on." className="min-w-48 flex-1">
                  <Input value={passkeyName} maxLength={60} onChange={(e) => setPasskeyName(e.target.value)} />
                </FormField>
                <Button type="submit" disabled={changes.addPasskey.isPending || passkeyName.trim() === ""}>
                  Add a passkey
                </Button>
              </form>
            </section>

            {(data.totp || data.passkeys.length > 0) && (
              <section aria-labelledby="codes-title" className="flex flex-wrap items-center justify-between gap-3">
                <div>
                  <h3 id="codes-title" className="font-semibold">
                    Recovery codes
                  </h3>
                  <p className="text-sm">{data.recoveryCodesLeft} of 10 left.</p>
                </div>
                <Button
                  type="button"
                  variant="outline"
                  onClick={() => changes.newRecoveryCodes.mutate(undefined, { onSuccess: (a) => setCodes(a.recoveryCodes), onError: failed("Could not make new codes") })}
                >
                  Make new codes
                </Button>
              </section>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** "Recent security activity": sign-ins, failures and changes, newest first. */
export function SecurityActivityCard() {
  const events = useSecurityEvents();
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-xl">
          <h2>Recent security activity</h2>
        </CardTitle>
        <CardDescription>If something here was not you, change your password and sign out everywhere else.</CardDescription>
      </CardHeader>
      <CardContent>
        {events.isLoading ? (
          <Skeleton className="h-24 w-full" />
        ) : (
          <ul aria-label="Security activity" className="grid gap-2">
            {events.data?.map((e) => (
              <li key={e.id} className="rounded-md border p-3 text-sm">
                <p className="font-medium">
                  {e.description}
                  {e.result === "failure" ? " (refused)" : ""}
                </p>
                <p className="text-muted-foreground">
                  {when(e.createdAt)} · {e.device}
                  {e.ip ? ` · ${e.ip}` : ""}
                </p>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
