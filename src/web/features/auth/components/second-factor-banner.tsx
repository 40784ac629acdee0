import { Button } from "@/components/ui/button";
import { useSecurityOverview } from "../api/account-security";

/**
 * For admins (who must) and providers (who should) without a second factor: a link to add one. It
 * comes after the page (app.tsx), so arriving late moves nothing on screen.
 */
export function SecondFactorBanner({ admin }: { admin: boolean }) {
  const overview = useSecurityOverview();
  if (!overview.data || overview.data.totp || overview.data.passkeys.length > 0) return null;
  return (
    <div role="region" aria-label="Add a second factor" className="border-y border-warning/50 bg-warning/10 text-warning">
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
