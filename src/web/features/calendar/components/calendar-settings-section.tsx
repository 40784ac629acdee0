import { CALENDAR_FOR_PROVIDERS } from "@shared/calendar";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { ApiError, errorMessage } from "@/lib/api";
import { useCalendarSettings } from "../api/calendar-settings";
import { CalendarSettingsForm } from "./calendar-settings-form";

/** The provider's calendar card: the form once the saved calendar is read; the server's words for anyone who keeps none. */
export function CalendarSettingsSection() {
  const calendar = useCalendarSettings();
  const notProvider = calendar.error instanceof ApiError && calendar.error.status === 403;
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-xl">
          <h2>Your hours</h2>
        </CardTitle>
        <CardDescription>When you take tasks. Posters book from the free times these hours leave, for the next two weeks.</CardDescription>
      </CardHeader>
      <CardContent>
        {calendar.data ? (
          <CalendarSettingsForm saved={calendar.data} />
        ) : calendar.isLoading ? (
          <Skeleton className="h-64 w-full" />
        ) : (
          <p className="text-sm">{notProvider ? CALENDAR_FOR_PROVIDERS : errorMessage(calendar.error, "Could not load your calendar")}</p>
        )}
      </CardContent>
    </Card>
  );
}
