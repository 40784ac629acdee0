import { lazy, Suspense } from "react";
import { Spinner } from "@/components/ui/spinner";
import { usePaymentConfig } from "../api/get-payment-config";
import { SandboxCardForm } from "./sandbox-card-form";

const StripePaymentForm = lazy(() => import("./stripe-payment-form"));

/** The card form of whichever gateway the server runs, for one client secret. */
export function CardPayment({ clientSecret, submitLabel, onPaid }: { clientSecret: string; submitLabel: string; onPaid: () => void }) {
  const config = usePaymentConfig();
  if (!config.data) return <Spinner label="Loading payment form" />;
  if (config.data.gateway === "stripe" && config.data.publishableKey) {
    return (
      <Suspense fallback={<Spinner label="Loading payment form" />}>
        <StripePaymentForm publishableKey={config.data.publishableKey} clientSecret={clientSecret} submitLabel={submitLabel} onPaid={onPaid} />
      </Suspense>
    );
  }
  return <SandboxCardForm clientSecret={clientSecret} submitLabel={submitLabel} onPaid={onPaid} />;
}
