import { Link } from "wouter";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useJobAlerts } from "@/features/job-alerts/api/get-job-alerts";
import { JobAlertsForm } from "@/features/job-alerts/components/job-alerts-form";
import { ApiError, errorMessage } from "@/lib/api";

/** /settings/alerts: a verified provider's job alerts (docs/product.md#job-alerts). */
export default function SettingsAlertsPage() {
  const alerts = useJobAlerts();
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-xl">
          <h2>Job alerts</h2>
        </CardTitle>
        <CardDescription>
          When a task is posted that matches an alert, your notification bell tells you at once, and we e-mail you at most once every 15
          minutes with every match (you can turn that e-mail off under{" "}
          <Link href="/settings/notifications" className="text-primary underline">
            Notifications
          </Link>
          ).
        </CardDescription>
      </CardHeader>
      <CardContent>
        {alerts.data ? (
          <JobAlertsForm alerts={alerts.data.alerts} />
        ) : alerts.error ? (
          <p className="text-sm">
            {errorMessage(alerts.error, "Your job alerts could not be loaded. Reload the page to try again.")}
            {alerts.error instanceof ApiError && alerts.error.status === 403 ? (
              <>
                {" "}
                <Link href="/become-provider" className="text-primary underline">
                  Become a provider
                </Link>
              </>
            ) : null}
          </p>
        ) : (
          <Skeleton className="h-64 w-full" />
        )}
      </CardContent>
    </Card>
  );
}
