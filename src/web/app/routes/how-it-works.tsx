import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { CallToAction, PageSection, StaticPage } from "@/features/site/components/static-page";
import { MONEY_WORDS } from "@shared/money-words";
import { APPLICATION_REVIEW_TIME } from "@/lib/application-review";

const FOR_POSTERS = [
  { title: "Post your task", text: `Give it a title, a description and a category, set a budget of at least ${MONEY_WORDS.minimumBudget}, choose standard or urgent, and add one location or a route with stops. Felix, our budget assistant, can suggest a fair budget from the distance and the work involved.` },
  { title: "A verified provider claims it", text: "Providers near you see your task on the job board. When one claims it you pay the budget plus the service fee, and the money is held in escrow: the provider is not paid yet." },
  { title: "Chat and get it done", text: "Settle the details with your provider in the task chat. They start the task once your payment is in, and mark it complete when the work is done." },
  { title: "Payment is released and you review", text: `${MONEY_WORDS.release} Then rate your provider.` },
];

const FOR_PROVIDERS = [
  { title: "Apply in under 5 minutes", text: "Tell us about yourself, upload a government-issued ID and a profile photo, and pick the services you offer." },
  { title: "Get verified", text: `Our team reviews every application, usually within ${APPLICATION_REVIEW_TIME}.` },
  { title: "Claim tasks you want", text: "Browse open tasks near you. Not sure a budget is fair? Ask Felix to evaluate it before you claim." },
  { title: "Get paid", text: `Keep ${MONEY_WORDS.providerShare}, and every cent of your tips. Payouts arrive in your bank account in 2-3 business days.` },
];

function Steps({ steps }: { steps: { title: string; text: string }[] }) {
  return (
    <ol className="grid gap-4 sm:grid-cols-2">
      {steps.map((s, i) => (
        <li key={s.title}>
          <Card className="h-full">
            <CardHeader>
              <CardTitle asChild className="text-lg">
                <h3>
                  {i + 1}. {s.title}
                </h3>
              </CardTitle>
            </CardHeader>
            <CardContent>
              <p className="text-muted-foreground">{s.text}</p>
            </CardContent>
          </Card>
        </li>
      ))}
    </ol>
  );
}

export default function HowItWorksPage() {
  return (
    <StaticPage title="How It Works" intro="Errandly connects people who need errands and tasks done with verified local providers, with payment held safely in escrow.">
      <PageSection title="For customers">
        <Steps steps={FOR_POSTERS} />
      </PageSection>
      <PageSection title="For providers">
        <Steps steps={FOR_PROVIDERS} />
      </PageSection>
      <CallToAction title="Ready to start?" text="See what people near you need done, or join as a provider and start earning.">
        <Button asChild>
          <Link href="/job-board">Browse the Job Board</Link>
        </Button>
        <Button asChild variant="outline">
          <Link href="/become-provider">Become a Provider</Link>
        </Button>
      </CallToAction>
    </StaticPage>
  );
}
