import { Link } from "wouter";
import { Button } from "@/components/ui/button";

const LINKS = [
  { href: "/admin", label: "Applications" },
  { href: "/admin/inbox", label: "Inbox" },
  { href: "/admin/finance", label: "Finance" },
  { href: "/admin/audit", label: "Audit Log" },
  { href: "/admin/outbox", label: "E-mail Outbox" },
  { href: "/admin/ledger", label: "Ledger" },
  { href: "/admin/reports", label: "Reports" },
];

/** Links between the admin pages. */
export function AdminNav({ current }: { current: string }) {
  return (
    <nav aria-label="Admin" className="flex flex-wrap gap-2">
      {LINKS.map((link) => (
        <Button key={link.href} asChild size="sm" variant={link.href === current ? "default" : "outline"}>
          <Link href={link.href} aria-current={link.href === current ? "page" : undefined}>
            {link.label}
          </Link>
        </Button>
      ))}
    </nav>
  );
}
