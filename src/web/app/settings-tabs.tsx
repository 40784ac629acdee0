import { lazy, type ComponentType, type LazyExoticComponent } from "react";

// The tabs of /settings, in order: one line each. A tab is a page of its own at /settings/<path>
// (code-split like every page), so a new tab is one line here and its page under routes/.

export interface SettingsTab {
  path: string;
  label: string;
  page: LazyExoticComponent<ComponentType>;
  /** Shown only to providers (the server still decides: only verified ones may use it). */
  providersOnly?: true;
}

export const SETTINGS_TABS: readonly SettingsTab[] = [
  { path: "profile", label: "Profile", page: lazy(() => import("./routes/settings-profile")) },
  { path: "security", label: "Security", page: lazy(() => import("./routes/settings-security")) },
  { path: "email", label: "E-mail", page: lazy(() => import("./routes/settings-email")) },
  { path: "alerts", label: "Job alerts", page: lazy(() => import("./routes/settings-alerts")), providersOnly: true },
  { path: "calendar", label: "Calendar", page: lazy(() => import("./routes/settings-calendar")) },
  { path: "notifications", label: "Notifications", page: lazy(() => import("./routes/notification-settings")) },
  { path: "privacy", label: "Privacy", page: lazy(() => import("./routes/settings-privacy")) },
];

export const DEFAULT_SETTINGS_TAB = "profile";
