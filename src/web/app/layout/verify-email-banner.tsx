import { VerifyEmailBanner } from "@/features/auth/components/verify-email-banner";
import { useUser } from "@/lib/current-user";

/** Under the header on every page, for a signed-in person who has not confirmed their address yet. */
export function UnverifiedEmailBanner() {
  const { user } = useUser();
  if (!user || user.emailVerified) return null;
  return <VerifyEmailBanner email={user.email} />;
}
