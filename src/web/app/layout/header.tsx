import { Menu, Moon, Sun, X } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { Link, useLocation } from "wouter";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useUser } from "@/lib/current-user";
import { goToLogin } from "@/lib/api";
import { useTheme } from "@/lib/theme";

// The bell brings the realtime socket and its zod frame contract: only a signed-in user
// sees it, so it loads on demand and a visitor's first load stays within the issue #8 JS budget.
const NotificationBell = lazy(() =>
  import("@/features/notifications/components/notification-bell").then((m) => ({ default: m.NotificationBell })),
);

// The signed-in person's avatar, Settings and Logout: a visitor never sees them.
const AccountControls = lazy(() => import("./account-controls").then((m) => ({ default: m.AccountControls })));
const MobileAccountControls = lazy(() => import("./account-controls").then((m) => ({ default: m.MobileAccountControls })));

// The live connection (bell count, task status, job board) loads with the bell, once per page.
const LiveUpdates = lazy(() => import("../live-updates"));

function LazyNotificationBell() {
  return (
    <Suspense fallback={null}>
      <NotificationBell />
    </Suspense>
  );
}

function ThemeToggle() {
  const { theme, toggle } = useTheme();
  const next = theme === "dark" ? "light" : "dark";
  return (
    <Button variant="ghost" size="icon" onClick={toggle} aria-label={`Switch to ${next} theme`} data-testid="theme-toggle">
      {theme === "dark" ? <Sun /> : <Moon />}
    </Button>
  );
}

export function Header() {
  const { user, isAuthenticated, isLoading } = useUser();
  const [menuOpen, setMenuOpen] = useState(false);
  const [location] = useLocation();
  const close = () => setMenuOpen(false);
  const isProvider = user?.role === "provider" || user?.role === "both";
  // An admin on one factor keeps the link: the admin pages tell them to add a second factor (decision 068).
  const isAdmin = user?.isAdmin === true || user?.adminNeedsSecondFactor === true;

  const navLink = (href: string, label: string, onClick?: () => void) => (
    <Link
      href={href}
      onClick={onClick}
      aria-current={location === href ? "page" : undefined}
      className="rounded-md px-3 py-2 text-sm font-medium text-foreground hover:bg-accent hover:text-accent-foreground aria-[current=page]:text-primary"
    >
      {label}
    </Link>
  );

  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      {isAuthenticated && (
        <Suspense fallback={null}>
          <LiveUpdates />
        </Suspense>
      )}
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link href="/" className="flex items-center gap-2">
          <img src="/favicon.svg" alt="" width={32} height={32} className="size-8" />
          <span className="text-lg font-bold tracking-tight">Errandly</span>
          <Badge variant="secondary" className="hidden sm:inline-flex">
            Early Access
          </Badge>
        </Link>

        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {navLink("/job-board", "Job Board")}
          {isAuthenticated && navLink("/dashboard", "Dashboard")}
          {isAuthenticated && navLink("/receipts", "Receipts")}
          {isProvider && navLink("/earnings", "Earnings")}
          {isProvider && navLink("/provider/profile", "My Profile")}
          {isAdmin && navLink("/admin", "Admin")}
        </nav>

        <div className="hidden items-center gap-2 md:flex">
          <ThemeToggle />
          {isAuthenticated && user ? (
            <>
              <LazyNotificationBell />
              <Suspense fallback={null}>
                <AccountControls user={user} />
              </Suspense>
            </>
          ) : (
            !isLoading && (
              <Button size="sm" onClick={() => goToLogin()} data-testid="sign-in-button">
                Sign In / Sign Up
              </Button>
            )
          )}
        </div>

        <div className="flex items-center gap-1 md:hidden">
          {isAuthenticated && <LazyNotificationBell />}
          <ThemeToggle />
          <Button
            variant="ghost"
            size="icon"
            aria-label={menuOpen ? "Close menu" : "Open menu"}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            onClick={() => setMenuOpen((o) => !o)}
          >
            {menuOpen ? <X /> : <Menu />}
          </Button>
        </div>
      </div>

      {menuOpen && (
        <nav id="mobile-menu" aria-label="Mobile" className="border-t border-border px-4 pb-4 pt-2 md:hidden">
          <div className="flex flex-col gap-1">
            {navLink("/job-board", "Job Board", close)}
            {isAuthenticated && navLink("/dashboard", "Dashboard", close)}
            {isAuthenticated && navLink("/receipts", "Receipts", close)}
            {isProvider && navLink("/earnings", "Earnings", close)}
            {isProvider && navLink("/provider/profile", "My Profile", close)}
            {isAdmin && navLink("/admin", "Admin", close)}
            {isAuthenticated && navLink("/settings/profile", "Settings", close)}
            {isAuthenticated && user ? (
              <Suspense fallback={null}>
                <MobileAccountControls user={user} />
              </Suspense>
            ) : (
              !isLoading && (
                <Button className="mt-2" onClick={() => goToLogin()}>
                  Sign In / Sign Up
                </Button>
              )
            )}
          </div>
        </nav>
      )}
    </header>
  );
}
