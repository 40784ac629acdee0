import { ChangePasswordForm } from "@/features/account/components/change-password-form";
import { SessionsCard } from "@/features/account/components/sessions-card";
import { useAccount } from "@/features/account/api/get-account";
import { SecondFactorsCard, SecurityActivityCard } from "@/features/auth/components/second-factors-card";

/** /settings/security: password (local accounts), second factors, the devices one is signed in on and recent security activity. */
export default function SettingsSecurityPage() {
  const account = useAccount();
  return (
    <>
      {account.data?.hasPassword === false ? (
        <p className="text-sm text-muted-foreground">You sign in with single sign-on, so there is no Errandly password to change.</p>
      ) : (
        <ChangePasswordForm />
      )}
      <SecondFactorsCard />
      <SessionsCard />
      <SecurityActivityCard />
    </>
  );
}
