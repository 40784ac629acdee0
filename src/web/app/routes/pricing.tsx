import { Link } from "wouter";
import { dollarsToCents, formatDollarsExact, priceTask } from "@shared/money";
import { MONEY_WORDS } from "@shared/money-words";
import { RECOURSE_WORDS } from "@shared/recourse-words";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { CallToAction, PageSection, StaticPage } from "@/features/site/components/static-page";

const EXAMPLE_BUDGETS = [20, 50, 100, 200];

export default function PricingPage() {
  const rows = EXAMPLE_BUDGETS.map((dollars) => priceTask(dollarsToCents(dollars), "standard"));
  return (
    <StaticPage title="Pricing" intro="No subscriptions and no hidden costs. You set the budget; we add a small service fee.">
      <PageSection title="For customers">
        <p className="mb-4 text-muted-foreground">
          The service fee is {MONEY_WORDS.serviceFee}. You pay the budget and the fee up front, and the money is held in escrow until
          the task is complete. The minimum budget is {MONEY_WORDS.minimumBudget}.
        </p>
        <div className="overflow-x-auto rounded-lg border">
          <table className="w-full text-left">
            <caption className="sr-only">Example service fees for standard tasks</caption>
            <thead className="bg-muted/50">
              <tr>
                <th scope="col" className="px-4 py-3">Task budget</th>
                <th scope="col" className="px-4 py-3">Service fee</th>
                <th scope="col" className="px-4 py-3">You pay</th>
                <th scope="col" className="px-4 py-3">Provider receives</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.budgetCents} className="border-t">
                  <th scope="row" className="px-4 py-3 font-medium">{formatDollarsExact(r.budgetCents)}</th>
                  <td className="px-4 py-3">{formatDollarsExact(r.serviceFeeCents)}</td>
                  <td className="px-4 py-3">{formatDollarsExact(r.totalCents)}</td>
                  <td className="px-4 py-3">{formatDollarsExact(r.providerShareCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="mt-6 grid gap-4 md:grid-cols-2">
          <Card>
            <CardHeader>
              <CardTitle asChild className="text-lg">
                <h3>Standard</h3>
              </CardTitle>
            </CardHeader>
            <CardContent className="text-muted-foreground">No extra charge. Your task is listed for providers to claim at their pace.</CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle asChild className="text-lg">
                <h3>Urgent</h3>
              </CardTitle>
            </CardHeader>
            <CardContent className="text-muted-foreground">
              A {MONEY_WORDS.urgentSurcharge} surcharge on the budget, so your task stands out to providers who can take it on short notice.
            </CardContent>
          </Card>
        </div>
        <p className="mt-4 text-sm text-muted-foreground">{RECOURSE_WORDS.refund}</p>
      </PageSection>
      <PageSection title="For providers">
        <ul className="list-disc space-y-2 pl-6">
          <li>
            You keep {MONEY_WORDS.providerShare}; the platform commission is {MONEY_WORDS.commissionPercent}.
          </li>
          <li>No commission on tips: every cent of a tip is yours.</li>
          <li>{MONEY_WORDS.release}</li>
          <li>Payouts arrive in your bank account in 2-3 business days.</li>
          <li>Joining is free.</li>
        </ul>
      </PageSection>
      <CallToAction title="Start with a task" text="Post your first task from the dashboard, or read how the whole process works.">
        <Button asChild>
          <Link href="/dashboard">Go to Dashboard</Link>
        </Button>
        <Button asChild variant="outline">
          <Link href="/how-it-works">How It Works</Link>
        </Button>
      </CallToAction>
    </StaticPage>
  );
}
