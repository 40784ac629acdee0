import { lazy, Suspense, useEffect, useState } from "react";
import { setStepUpPrompt } from "@/lib/api";
import { useUser } from "@/lib/current-user";

// For signed-in people only, and each part loaded when it is needed, so neither is in a page's
// first load (issue 17): the "confirm it is you" prompt, once a sensitive change asks for it, and
// for admins and providers without a second factor a banner to add one
// (docs/decisions/049-second-factors.md, 050).
const StepUpPrompt = lazy(() => import("@/features/auth/components/step-up-prompt").then((m) => ({ default: m.StepUpPrompt })));
const SecondFactorBanner = lazy(() => import("@/features/auth/components/second-factor-banner").then((m) => ({ default: m.SecondFactorBanner })));

export function AccountSecurityLayer() {
  const { user } = useUser();
  const signedIn = Boolean(user);
  // The API client's pending step-up: how to answer it once the person has proven it is them, or not.
  const [pending, setPending] = useState<((ok: boolean) => void) | null>(null);
  useEffect(() => {
    if (!signedIn) return;
    setStepUpPrompt(() => new Promise<boolean>((resolve) => setPending(() => resolve)));
    return () => setStepUpPrompt(null);
  }, [signedIn]);
  if (!user) return null;
  return (
    <Suspense fallback={null}>
      {pending ? (
        <StepUpPrompt
          onDone={(ok) => {
            pending(ok);
            setPending(null);
          }}
        />
      ) : null}
      {user.role === "admin" || user.role === "provider" ? <SecondFactorBanner admin={user.role === "admin"} /> : null}
    </Suspense>
  );
}
