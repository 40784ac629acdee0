import { Link } from "wouter";
import { OFFICE } from "@shared/constants";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { OFFICE_TEL_HREF } from "@/features/site/components/office-contact";
import { PageSection, StaticPage } from "@/features/site/components/static-page";

const TOPICS = [
  { title: "Your dashboard", text: "See your claimed jobs, start and complete tasks, and set up payouts.", href: "/dashboard", label: "Open Dashboard" },
  { title: "How it works", text: "The life of a task from posting to payout.", href: "/how-it-works", label: "How It Works" },
  { title: "Requirements", text: "What you need to apply and how verification works.", href: "/requirements", label: "Requirements" },
  { title: "Benefits", text: "Earnings, tips, payouts and everything else providers get.", href: "/benefits", label: "Provider Benefits" },
  { title: "FAQ", text: "Quick answers to the most common questions.", href: "/faq", label: "Read the FAQ" },
];

export default function ProviderSupportPage() {
  return (
    <StaticPage title="Provider Support" intro="Help for providers, 24/7. Our team replies within 24 hours.">
      <PageSection title="Help topics">
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {TOPICS.map((t) => (
            <li key={t.href}>
              <Card className="flex h-full flex-col">
                <CardHeader>
                  <CardTitle asChild className="text-lg">
                    <h3>{t.title}</h3>
                  </CardTitle>
                  <CardDescription>{t.text}</CardDescription>
                </CardHeader>
                <CardContent className="mt-auto">
                  <Button asChild variant="outline">
                    <Link href={t.href}>{t.label}</Link>
                  </Button>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      </PageSection>
      <PageSection title="Contact support">
        <p className="text-muted-foreground">
          Email{" "}
          <a href={`mailto:${OFFICE.supportEmail}`} className="text-primary underline underline-offset-4">
            {OFFICE.supportEmail}
          </a>{" "}
          or call{" "}
          <a href={OFFICE_TEL_HREF} className="text-primary underline underline-offset-4">
            {OFFICE.phone}
          </a>
          . Office visits by appointment only, {OFFICE.hours}.
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          <Button asChild>
            <Link href="/contact">Send a Message</Link>
          </Button>
          <Button asChild variant="outline">
            <Link href="/book-appointment">Book an Appointment</Link>
          </Button>
        </div>
      </PageSection>
    </StaticPage>
  );
}
