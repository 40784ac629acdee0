import { useLocation } from "wouter";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { toast } from "@/components/ui/use-toast";
import { useCompleteSandboxOnboarding } from "@/features/payments/api/complete-sandbox-onboarding";
import { errorMessage } from "@/lib/api";

/** /payouts/sandbox-onboarding: the sandbox's stand-in for Stripe's hosted Express onboarding. */
export default function SandboxOnboardingPage() {
  const [, navigate] = useLocation();
  const complete = useCompleteSandboxOnboarding();

  function finish() {
    complete.mutate(undefined, {
      onSuccess: () => navigate("/dashboard?setup=success"),
      onError: (error) => toast({ title: "Error", description: errorMessage(error, "An error occurred."), variant: "destructive" }),
    });
  }

  return (
    <div className="mx-auto max-w-xl px-4 py-12 sm:px-6">
      <Card>
        <CardHeader>
          <CardTitle asChild className="text-2xl">
            <h1>Set Up Payouts</h1>
          </CardTitle>
          <CardDescription>
            Sandbox mode: no bank details are needed and no real money moves. Confirm to enable payouts to a test account.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-2">
          <Button onClick={finish} disabled={complete.isPending}>
            {complete.isPending ? "Enabling..." : "Enable Payouts"}
          </Button>
          <Button variant="outline" onClick={() => navigate("/dashboard")}>
            Cancel
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
