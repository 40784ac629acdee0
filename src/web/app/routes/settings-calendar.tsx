import { CalendarFeedCard } from "@/features/calendar/components/calendar-feed-card";
import { CalendarSettingsSection } from "@/features/calendar/components/calendar-settings-section";
import { useSignedInUser } from "../protected-route";

/**
 * /settings/calendar (a tab of /settings): a provider's hours (docs/product.md, "Time and turning
 * up"), and everyone's private calendar feed of their tasks.
 */
export default function CalendarSettingsPage() {
  const { role } = useSignedInUser();
  const provider = role === "provider" || role === "both";
  return (
    <>
      {provider ? <CalendarSettingsSection /> : null}
      <CalendarFeedCard />
    </>
  );
}
