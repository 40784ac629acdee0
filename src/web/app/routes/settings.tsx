import { Suspense } from "react";
import { Link, Redirect, useParams } from "wouter";
import { Spinner } from "@/components/ui/spinner";
import { useDocumentTitle } from "@/features/site/hooks/use-document-title";
import { useSignedInUser } from "../protected-route";
import { DEFAULT_SETTINGS_TAB, SETTINGS_TABS } from "../settings-tabs";

/**
 * /settings/<tab>: the account's settings, one tab per page (settings-tabs.tsx). On a narrow screen
 * the tabs wrap onto a second line: scrolling sideways cut "Notifications" and hid Privacy at 390 px.
 */
export default function SettingsPage() {
  const { tab = DEFAULT_SETTINGS_TAB } = useParams<{ tab?: string }>();
  const { role } = useSignedInUser();
  const tabs = SETTINGS_TABS.filter((t) => !t.providersOnly || role === "provider" || role === "both");
  const active = tabs.find((t) => t.path === tab);
  useDocumentTitle(active ? `Settings: ${active.label}` : "Settings");
  if (!active) return <Redirect to={`/settings/${DEFAULT_SETTINGS_TAB}`} replace />;
  const Page = active.page;

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6">
      <h1 className="mb-6 text-3xl font-bold">Settings</h1>
      <nav aria-label="Settings" className="mb-6">
        <ul className="flex flex-wrap gap-x-1 border-b border-border">
          {tabs.map((t) => (
            <li key={t.path}>
              <Link
                href={`/settings/${t.path}`}
                aria-current={t.path === active.path ? "page" : undefined}
                className="-mb-px inline-block border-b-2 border-transparent px-3 py-2 text-sm font-medium whitespace-nowrap text-muted-foreground hover:text-foreground aria-[current=page]:border-primary aria-[current=page]:text-foreground"
              >
                {t.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Suspense
        fallback={
          <div className="flex justify-center py-12">
            <Spinner />
          </div>
        }
      >
        <div className="grid gap-6">
          <Page />
        </div>
      </Suspense>
    </div>
  );
}
