import type { ReactNode } from "react";
import { Link } from "wouter";

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

/** Privacy policy and terms: dated, with a table of contents linking to each section. */
export function LegalPage({ title, updated, intro, sections }: { title: string; updated: string; intro: ReactNode; sections: LegalSection[] }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 lg:py-16">
      <header>
        <h1 className="text-4xl font-bold tracking-tight">{title}</h1>
        <p className="mt-2 text-sm text-muted-foreground">
          Last updated: <time dateTime={updated}>{new Date(`${updated}T12:00:00Z`).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" })}</time>
        </p>
        <div className="mt-6 space-y-4 leading-relaxed">{intro}</div>
      </header>
      <nav aria-label="Contents" className="mt-8 rounded-lg border bg-card p-4">
        <p className="font-semibold">Contents</p>
        <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm">
          {sections.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`} className="text-primary underline-offset-4 hover:underline">
                {s.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      {sections.map((s, i) => (
        <section key={s.id} id={s.id} aria-labelledby={`${s.id}-title`} className="mt-10 scroll-mt-24">
          <h2 id={`${s.id}-title`} className="text-2xl font-semibold">
            {i + 1}. {s.title}
          </h2>
          <div className="mt-3 space-y-3 leading-relaxed [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-6">{s.body}</div>
        </section>
      ))}
      <p className="mt-12 text-sm text-muted-foreground">
        Questions? <Link href="/contact" className="text-primary underline underline-offset-4">Contact us</Link>.
      </p>
    </article>
  );
}
