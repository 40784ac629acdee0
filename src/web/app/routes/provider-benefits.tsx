import { CalendarClock, DollarSign, Gift, MessageSquare, ShieldCheck, Wallet } from "lucide-react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { MONEY_WORDS } from "@shared/money-words";
import { CallToAction, StaticPage } from "@/features/site/components/static-page";

const BENEFITS = [
  { icon: DollarSign, title: "Earn $500+ per week", text: `Top providers earn $500+ per week. You keep ${MONEY_WORDS.providerShare}.` },
  { icon: Wallet, title: "Set your own rates", text: "Claim the tasks whose budgets suit you, and ask Felix whether a budget is fair before you commit." },
  { icon: CalendarClock, title: "Work on your schedule", text: "No shifts and no minimums. Choose when and where you work, Monday to Sunday." },
  { icon: Gift, title: "Tips are all yours", text: "We take no commission on tips." },
  { icon: ShieldCheck, title: "Paid up front", text: "Customers pay into escrow before you start, so the money for every task you start is already there." },
  { icon: MessageSquare, title: "Support when you need it", text: "Our team is available 24/7 and replies within 24 hours." },
];

export default function ProviderBenefitsPage() {
  return (
    <StaticPage title="Provider Benefits" intro="Turn your free time into income helping people in your area. Free to join, in under 5 minutes.">
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {BENEFITS.map((b) => (
          <li key={b.title}>
            <Card className="h-full">
              <CardHeader>
                <b.icon className="size-7 text-primary" aria-hidden="true" />
                <CardTitle asChild className="text-lg">
                  <h2>{b.title}</h2>
                </CardTitle>
              </CardHeader>
              <CardContent>
                <p className="text-muted-foreground">{b.text}</p>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
      <CallToAction title="Ready to earn?" text="Check what you need to apply, then send your application. It's free.">
        <Button asChild>
          <Link href="/become-provider">Become a Provider</Link>
        </Button>
        <Button asChild variant="outline">
          <Link href="/requirements">See Requirements</Link>
        </Button>
      </CallToAction>
    </StaticPage>
  );
}
