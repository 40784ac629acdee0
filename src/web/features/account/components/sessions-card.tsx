import { Monitor } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/api";
import { useEndSessions, useSessions } from "../api/get-sessions";

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/** Where the person is signed in, with "Sign out" per device and for every other device at once. */
export function SessionsCard() {
  const sessions = useSessions();
  const { endOne, endOthers } = useEndSessions();
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;
  const failed = (error: unknown) => toast({ title: "Could not sign out", description: errorMessage(error, "Please try again."), variant: "destructive" });

  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-xl">
          <h2>Where you are signed in</h2>
        </CardTitle>
        <CardDescription>If you do not recognise a device, sign it out and change your password.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {sessions.isLoading ? (
          <Skeleton className="h-24 w-full" />
        ) : sessions.isError ? (
          <p className="text-sm text-destructive">Could not load your devices. Reload the page to try again.</p>
        ) : (
          <ul className="grid gap-3" aria-label="Signed-in devices">
            {sessions.data?.map((s) => (
              <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 rounded-md border p-3">
                <div className="flex min-w-0 items-center gap-3">
                  <Monitor className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
                  <div className="min-w-0">
                    <p className="font-medium break-words">
                      {s.device} {s.current ? <Badge variant="secondary">This device</Badge> : null}
                    </p>
                    <p className="text-sm text-muted-foreground">
                      Last active {when(s.lastSeenAt)} · signed in {when(s.createdAt)} · {s.proof}
                    </p>
                  </div>
                </div>
                {s.current ? null : (
                  <Button
                    type="button"
                    variant="outline"
                    size="sm"
                    disabled={endOne.isPending}
                    aria-label={`Sign out ${s.device}, last active ${when(s.lastSeenAt)}`}
                    onClick={() => endOne.mutate(s.id, { onSuccess: () => toast({ title: "Signed out", description: `${s.device} is signed out.` }), onError: failed })}
                  >
                    Sign out
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        <div>
          <Button
            type="button"
            variant="outline"
            disabled={others === 0 || endOthers.isPending}
            onClick={() =>
              endOthers.mutate(undefined, {
                onSuccess: ({ signedOut }) => toast({ title: "Signed out everywhere else", description: `${signedOut} other ${signedOut === 1 ? "device was" : "devices were"} signed out.` }),
                onError: failed,
              })
            }
          >
            Sign out everywhere else
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
