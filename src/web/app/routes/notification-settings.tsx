import { NOTIFICATION_KINDS, NOTIFICATION_KIND_LABELS } from "@shared/notifications";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { toast } from "@/components/ui/use-toast";
import { useNotificationPreferences } from "@/features/notifications/api/get-notification-preferences";
import { useUpdateNotificationPreferences } from "@/features/notifications/api/update-notification-preferences";
import { errorMessage } from "@/lib/api";

/** /settings/notifications (a tab of /settings): per kind, e-mail on or off; in-app notices always stay. */
export default function NotificationSettingsPage() {
  const prefs = useNotificationPreferences(true);
  const update = useUpdateNotificationPreferences();

  return (
    <Card>
        <CardHeader>
          <CardTitle asChild className="text-xl">
            <h2>E-mail notifications</h2>
          </CardTitle>
          <CardDescription>You always see these in the notification bell; choose which ones also reach your inbox.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {NOTIFICATION_KINDS.map((kind) => {
            const id = `email-${kind}`;
            return (
              <div key={kind} className="flex items-center justify-between gap-4">
                <Label htmlFor={id} className="font-normal">
                  {NOTIFICATION_KIND_LABELS[kind]}
                </Label>
                {prefs.data ? (
                  <Switch
                    id={id}
                    checked={prefs.data.email[kind]}
                    disabled={update.isPending}
                    onCheckedChange={(checked) =>
                      update.mutate(
                        { [kind]: checked },
                        {
                          onError: (err) =>
                            toast({ title: "Error", description: errorMessage(err, "Failed to save your preferences"), variant: "destructive" }),
                        },
                      )
                    }
                  />
                ) : (
                  <Skeleton className="h-6 w-11 rounded-full" />
                )}
              </div>
            );
          })}
        </CardContent>
    </Card>
  );
}
