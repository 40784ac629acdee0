import { ChangePasswordForm } from "@/features/account/components/change-password-form";
import { SessionsCard } from "@/features/account/components/sessions-card";
import { useAccount } from "@/features/account/api/get-account";

/** /settings/security: password (local accounts) and the devices one is signed in on. */
export default function SettingsSecurityPage() {
  const account = useAccount();
  return (
    <>
      {account.data?.hasPassword === false ? (
        <p className="text-sm text-muted-foreground">You sign in with single sign-on, so there is no Errandly password to change.</p>
      ) : (
        <ChangePasswordForm />
      )}
      <SessionsCard />
    </>
  );
}
