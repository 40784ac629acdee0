import { Button } from "@/components/ui/button";
import { usePushDevice } from "../hooks/use-push-device";

/** "Turn on notifications on this device", or why it cannot be. */
export function PushDeviceControl() {
  const { state, busy, turnOn, turnOff } = usePushDevice();
  const status = (text: string) => (
    <p className="text-sm text-muted-foreground" role="status">
      {text}
    </p>
  );
  switch (state.status) {
    case "checking":
      return status("Checking this browser…");
    case "unsupported":
      return status("This browser cannot show notifications while Errandly is closed. You still get them in the bell and by e-mail. On an iPhone, add Errandly to your Home Screen first.");
    case "server-off":
      return status("Notifications on devices are turned off on this server. You still get them in the bell and by e-mail.");
    case "blocked":
      return status("Your browser blocks notifications from Errandly. Allow them in the site settings of your browser (the icon beside the address), then reload this page.");
    case "on":
      return (
        <div className="flex flex-wrap items-center justify-between gap-3">
          {status("Notifications are on for this device.")}
          <Button variant="outline" disabled={busy} onClick={() => void turnOff()}>
            Turn off on this device
          </Button>
        </div>
      );
    case "off":
      return (
        <div className="space-y-2">
          <Button disabled={busy} onClick={() => void turnOn()}>
            Turn on notifications on this device
          </Button>
          {state.problem ? (
            <p className="text-sm text-destructive" role="alert">
              {state.problem}
            </p>
          ) : null}
        </div>
      );
  }
}
