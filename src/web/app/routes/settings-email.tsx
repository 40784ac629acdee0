import { useSignedInUser } from "../protected-route";
import { ChangeEmailForm } from "@/features/auth/components/change-email-form";

/**
 * /settings/email: change of e-mail. A plain section so the settings shell can take it in as a tab
 * (docs/product.md, Accounts: recovery and verification).
 */
export default function SettingsEmailPage() {
  const user = useSignedInUser();
  return (
    <section className="mx-auto max-w-2xl space-y-6 px-4 py-8" aria-labelledby="settings-email-heading">
      <div className="space-y-2">
        <h1 id="settings-email-heading" className="text-3xl font-bold">
          E-mail address
        </h1>
        <p className="text-muted-foreground">
          We send a link to the new address; the change happens when you open it, and we tell the old address.
        </p>
      </div>
      <ChangeEmailForm currentEmail={user.email} />
    </section>
  );
}
