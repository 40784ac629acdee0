import { NOTIFICATION_KINDS, NOTIFICATION_KIND_LABELS, type NotificationKind } from "@shared/notifications";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { toast } from "@/components/ui/use-toast";
import { useNotificationPreferences } from "@/features/notifications/api/get-notification-preferences";
import { useUpdateNotificationPreferences } from "@/features/notifications/api/update-notification-preferences";
import { PushDeviceControl } from "@/features/notifications/components/push-device-control";
import { pushKindLabel } from "@shared/push";
import { errorMessage } from "@/lib/api";

type Channel = "email" | "push";

/**
 * /settings/notifications (a tab of /settings): per kind, e-mail on or off and push on or off (push
 * is opt-in, docs/product.md#chat-and-notifications); in-app notices always stay.
 */
export default function NotificationSettingsPage() {
  const prefs = useNotificationPreferences(true);
  const update = useUpdateNotificationPreferences();

  const switches = (channel: Channel) =>
    NOTIFICATION_KINDS.map((kind: NotificationKind) => {
      const id = `${channel}-${kind}`;
      return (
        <div key={kind} className="flex items-center justify-between gap-4">
          <Label htmlFor={id} className="font-normal">
            {channel === "push" ? pushKindLabel(kind) : NOTIFICATION_KIND_LABELS[kind]}
            {/* Each kind has a switch per channel: a screen reader names which one. */}
            <span className="sr-only">{channel === "push" ? " (by push)" : " (by e-mail)"}</span>
          </Label>
          {prefs.data ? (
            <Switch
              id={id}
              checked={prefs.data[channel][kind]}
              disabled={update.isPending}
              onCheckedChange={(checked) =>
                update.mutate(
                  { [channel]: { [kind]: checked } },
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
    });

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle asChild className="text-xl">
            <h2>Notifications on this device</h2>
          </CardTitle>
          <CardDescription>
            Get told within seconds, even with Errandly closed: a new task for your job alerts, a claim, a payment, a message. Choose which ones reach your devices.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <PushDeviceControl />
          <h3 className="pt-2 text-sm font-semibold">Push these to my devices</h3>
          {switches("push")}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle asChild className="text-xl">
            <h2>E-mail notifications</h2>
          </CardTitle>
          <CardDescription>You always see these in the notification bell; choose which ones also reach your inbox.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">{switches("email")}</CardContent>
      </Card>
    </div>
  );
}
