import { lazy, Suspense } from "react";
import { useUser } from "@/lib/current-user";

// For signed-in people only, so its code loads then, not in every visitor's first load (issue 17):
// the "confirm it is you" prompt sensitive changes ask for, and for admins and providers without a
// second factor a banner to add one (docs/decisions/049-second-factors.md, 050).
const StepUpPrompt = lazy(() => import("@/features/auth/components/step-up-prompt").then((m) => ({ default: m.StepUpPrompt })));
const SecondFactorBanner = lazy(() => import("@/features/auth/components/step-up-prompt").then((m) => ({ default: m.SecondFactorBanner })));

export function AccountSecurityLayer() {
  const { user } = useUser();
  if (!user) return null;
  return (
    <Suspense fallback={null}>
      <StepUpPrompt />
      {user.role === "admin" || user.role === "provider" ? <SecondFactorBanner admin={user.role === "admin"} /> : null}
    </Suspense>
  );
}
