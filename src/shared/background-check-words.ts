// The words and dates of background checks as pages show them (docs/decisions/064-background-checks.md),
// apart from the schemas (background-checks.ts) so a page that only shows a check loads no zod.

/** Where the latest check stands, as the applicant and the admin see it. */
export const BACKGROUND_CHECK_STATES = ["not_started", "pending", "clear", "consider"] as const;
type BackgroundCheckState = (typeof BACKGROUND_CHECK_STATES)[number];

export const BACKGROUND_CHECK_STATE_LABELS: Record<BackgroundCheckState, string> = {
  not_started: "Not started",
  pending: "Pending",
  clear: "Clear",
  consider: "Needs review",
};

// Dates of checks are days (a manual check's is midnight UTC of its day): shown in UTC, so no
// time zone moves them to the day before.
const dayFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
const monthFormat = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

/** "May 28, 2026". */
export function checkDay(iso: string): string {
  return dayFormat.format(new Date(iso));
}

/** "Background checked May 2026": the public profile's line. */
export function backgroundCheckedLine(iso: string): string {
  return `Background checked ${monthFormat.format(new Date(iso))}`;
}
