import { lazy, Suspense } from "react";
import { useUser } from "@/lib/current-user";

// Only a signed-in person with an unconfirmed address sees the banner, so its code (and its resend
// mutation) loads then, not in every visitor's first load (issue 17). It can only appear once the
// current-user call has answered, which is already after the first paint.
const VerifyEmailBanner = lazy(() =>
  import("@/features/auth/components/verify-email-banner").then((m) => ({ default: m.VerifyEmailBanner })),
);

/** Under the header on every page, for a signed-in person who has not confirmed their address yet. */
export function UnverifiedEmailBanner() {
  const { user } = useUser();
  if (!user || user.emailVerified) return null;
  return (
    <Suspense fallback={null}>
      <VerifyEmailBanner email={user.email} />
    </Suspense>
  );
}
