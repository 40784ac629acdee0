import { QueryClientProvider } from "@tanstack/react-query";
import { Toaster } from "@/components/ui/toaster";
import { TooltipProvider } from "@/components/ui/tooltip";
import { queryClient } from "@/lib/api";
import { Footer } from "./layout/footer";
import { Header } from "./layout/header";
import { MobileScrollButtons } from "./layout/mobile-scroll-buttons";
import { ScrollToTopOnSearchChange } from "./layout/scroll-to-top";
import { Router } from "./router";

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-[100] focus:rounded-md focus:bg-background focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        <div className="flex min-h-screen flex-col bg-background text-foreground">
          <Header />
          <main id="main" className="flex-1">
            <Router />
          </main>
          <Footer />
        </div>
        <MobileScrollButtons />
        <ScrollToTopOnSearchChange />
        <Toaster />
      </TooltipProvider>
    </QueryClientProvider>
  );
}
