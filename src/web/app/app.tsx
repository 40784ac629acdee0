import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { queryClient } from "@/lib/api";
import { DeferredToaster } from "./layout/deferred-toaster";
import { Footer } from "./layout/footer";
import { Header } from "./layout/header";
import { MobileScrollButtons } from "./layout/mobile-scroll-buttons";
import { ScrollToTopOnSearchChange } from "./layout/scroll-to-top";
import { UnverifiedEmailBanner } from "./layout/verify-email-banner";
import { AccountSecurityLayer } from "./layout/account-security";
import { RouteHead } from "./layout/route-head";
import { Router } from "./router";

// No app-wide TooltipProvider: each Tooltip brings its own (components/ui/tooltip.tsx), and the
// provider alone put Radix Popper and Floating UI (about 9 KB gzipped) in every first load (issue 17).
// The server renderer passes its own query client per request, with the page's data
// (docs/decisions/036-server-rendered-data-pages.md).
export function App({ client = queryClient }: { client?: QueryClient }) {
  return (
    <QueryClientProvider client={client}>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-[100] focus:rounded-md focus:bg-background focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <div className="flex min-h-screen flex-col bg-background text-foreground">
        <Header />
        <UnverifiedEmailBanner />
        {/* At least a viewport tall (less the 4rem header): the footer starts below the fold, so a
            page replacing its loading spinner never moves it on screen (Lighthouse CLS was 0.42). */}
        <main id="main" className="min-h-[calc(100vh-4rem)] flex-1">
          <RouteHead />
          <Router />
        </main>
        {/* Below the page, so a banner that arrives after the first paint moves nothing on screen. */}
        <AccountSecurityLayer />
        <Footer />
      </div>
      <MobileScrollButtons />
      <ScrollToTopOnSearchChange />
      <DeferredToaster />
    </QueryClientProvider>
  );
}
