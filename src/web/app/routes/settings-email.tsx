import { useSignedInUser } from "../protected-route";
import { ChangeEmailForm } from "@/features/auth/components/change-email-form";

/**
 * /settings/email: change of e-mail, a tab of the settings page (docs/product.md, Accounts:
 * recovery and verification).
 */
export default function SettingsEmailPage() {
  const user = useSignedInUser();
  return (
    <>
      <p className="text-muted-foreground">
        We send a link to the new address; the change happens when you open it, and we tell the old address.
      </p>
      <ChangeEmailForm currentEmail={user.email} />
    </>
  );
}
