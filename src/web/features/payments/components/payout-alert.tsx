import { useState } from "react";
import { CheckCircle2, Wallet } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/use-toast";
import { useUser } from "@/lib/current-user";
import { createAccountLink } from "../api/create-account-link";
import { createConnectAccount } from "../api/create-connect-account";
import { usePayoutStatus } from "../api/get-payout-status";

/** Payout onboarding (docs/product.md#money): use the existing account, or create one; 'already exists' means one was made meanwhile. */
async function startOnboarding(hasAccount: boolean): Promise<void> {
  if (!hasAccount) {
    try {
      await createConnectAccount();
    } catch (error) {
      if (!(error instanceof Error && error.message.includes("already exists"))) {
        toast({ title: "Error", description: "Failed to create Connect account", variant: "destructive" });
        return;
      }
    }
  }
  try {
    const { url } = await createAccountLink();
    window.location.href = url;
  } catch {
    toast({ title: "Error", description: "Failed to get onboarding link", variant: "destructive" });
  }
}

/** Dashboard payouts alert (docs/product.md#verification), shown only to approved providers. */
export function PayoutAlert() {
  const { user } = useUser();
  const isProviderRole = user?.role === "provider" || user?.role === "both";
  const { data: profile } = usePayoutStatus(isProviderRole);
  const [pending, setPending] = useState(false);
  if (!isProviderRole || profile?.verificationStatus !== "approved") return null;

  if (profile.payoutsEnabled) {
    return (
      <Alert role="status" variant="success">
        <CheckCircle2 aria-hidden="true" />
        <AlertTitle>Payouts Enabled</AlertTitle>
        <AlertDescription>Your earnings are paid out to your connected account.</AlertDescription>
      </Alert>
    );
  }
  if (profile.stripeOnboardingComplete) {
    return (
      <Alert role="status" variant="info">
        <CheckCircle2 aria-hidden="true" />
        <AlertTitle>Onboarding Complete</AlertTitle>
        <AlertDescription>Your payout account is being verified. Payouts start once it is enabled.</AlertDescription>
      </Alert>
    );
  }
  return (
    <Alert role="status" variant="warning">
      <Wallet aria-hidden="true" />
      <AlertTitle>Set Up Payouts</AlertTitle>
      <AlertDescription className="grid gap-3">
        <p>Connect a payout account to receive your earnings. Released money waits for you until then.</p>
        <div>
          <Button
            size="sm"
            disabled={pending}
            onClick={() => {
              setPending(true);
              void startOnboarding(profile.stripeAccountId !== null).finally(() => setPending(false));
            }}
          >
            {pending ? "Opening..." : "Set Up Now"}
          </Button>
        </div>
      </AlertDescription>
    </Alert>
  );
}
