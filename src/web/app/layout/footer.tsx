import { Link } from "wouter";
import { OFFICE } from "@shared/constants";

const COLUMNS: { title: string; links: { href: string; label: string }[] }[] = [
  {
    title: "For Customers",
    links: [
      { href: "/how-it-works", label: "How It Works" },
      { href: "/services", label: "Services" },
      { href: "/pricing", label: "Pricing" },
      { href: "/faq", label: "FAQ" },
    ],
  },
  {
    title: "For Providers",
    links: [
      { href: "/provider-benefits", label: "Provider Benefits" },
      { href: "/requirements", label: "Requirements" },
      { href: "/provider-support", label: "Provider Support" },
    ],
  },
  {
    title: "Company",
    links: [
      { href: "/book-appointment", label: "Book an Appointment" },
      { href: "/contact", label: "Contact" },
      { href: "/privacy", label: "Privacy Policy" },
      { href: "/terms", label: "Terms of Service" },
    ],
  },
];

const SOCIAL = [
  { href: "https://www.facebook.com/errandly", label: "Errandly on Facebook" },
  { href: "https://www.instagram.com/errandly", label: "Errandly on Instagram" },
  { href: "https://x.com/errandly", label: "Errandly on X" },
];

export function Footer() {
  return (
    <footer className="border-t border-border bg-muted/40">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:px-6 md:grid-cols-4">
        <div>
          <p className="text-lg font-bold">Errandly</p>
          <p className="mt-2 text-sm text-muted-foreground">Local errands and tasks, done by verified providers.</p>
          <p className="mt-4 text-sm text-muted-foreground">
            Hours: {OFFICE.hours}
            <br />
            Office visits by appointment only.
          </p>
          <ul className="mt-4 flex gap-3" aria-label="Social networks">
            {SOCIAL.map((s) => (
              <li key={s.href}>
                <a href={s.href} rel="noopener noreferrer" target="_blank" className="text-sm text-muted-foreground underline-offset-4 hover:text-foreground hover:underline">
                  {s.label.replace("Errandly on ", "")}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
        {COLUMNS.map((col) => (
          <nav key={col.title} aria-label={col.title}>
            <p className="text-sm font-semibold">{col.title}</p>
            <ul className="mt-3 space-y-2">
              {col.links.map((l) => (
                <li key={l.href}>
                  <Link href={l.href} className="text-sm text-muted-foreground hover:text-foreground hover:underline">
                    {l.label}
                    {l.href === "/book-appointment" && <span className="ml-1 text-xs">(by appointment only)</span>}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-border py-4 text-center text-xs text-muted-foreground">
        © {new Date().getFullYear()} Errandly. All rights reserved.
      </div>
    </footer>
  );
}
