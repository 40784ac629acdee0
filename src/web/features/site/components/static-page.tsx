import type { ReactNode } from "react";

interface StaticPageProps {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}

/** The frame of the information pages: one h1, an intro, and the page's tab title. */
export function StaticPage({ title, intro, children }: StaticPageProps) {
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6 lg:py-16">
      <header className="mb-10 text-center">
        <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">{title}</h1>
        {intro ? <p className="mx-auto mt-4 max-w-2xl text-lg text-muted-foreground">{intro}</p> : null}
      </header>
      <div className="space-y-12">{children}</div>
    </div>
  );
}

export function PageSection({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  return (
    <section aria-label={title} className={className}>
      <h2 className="mb-4 text-2xl font-semibold tracking-tight">{title}</h2>
      {children}
    </section>
  );
}

/** The closing call to action of an information page. */
export function CallToAction({ title, text, children }: { title: string; text: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-xl border bg-accent px-6 py-10 text-center text-accent-foreground">
      <h2 className="text-2xl font-semibold">{title}</h2>
      <p className="mx-auto mt-2 max-w-xl">{text}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">{children}</div>
    </section>
  );
}
