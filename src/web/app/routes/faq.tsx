import { ChevronDown } from "lucide-react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { CallToAction, PageSection, StaticPage } from "@/features/site/components/static-page";
import { MONEY_WORDS } from "@shared/money-words";
import { RECOURSE_WORDS } from "@shared/recourse-words";
import { APPLICATION_REVIEW_TIME } from "@/lib/application-review";

const GROUPS: { title: string; items: { q: string; a: string }[] }[] = [
  {
    title: "For customers",
    items: [
      { q: "How do I post a task?", a: `Sign in, choose Post a Task, describe the job, pick a category, set your budget (at least ${MONEY_WORDS.minimumBudget}) and add the location or route. Felix can suggest a fair budget.` },
      { q: "When do I pay?", a: `After a provider claims your task you pay the budget plus the service fee. The money is held in escrow and released to the provider only after the task is completed. ${MONEY_WORDS.release}` },
      { q: "What does it cost?", a: `The service fee is ${MONEY_WORDS.serviceFee}. Urgent tasks carry a ${MONEY_WORDS.urgentSurcharge} surcharge. See the pricing page for examples.` },
      { q: "Can I cancel a task?", a: `Yes, while it is open or claimed and before work has started. ${RECOURSE_WORDS.refund}` },
      { q: "What if something goes wrong?", a: `Report a problem on the task page, or contact support: we are available 24/7 and reply within 24 hours. ${RECOURSE_WORDS.disputes}` },
      { q: "How are providers checked?", a: "Every provider submits a government-issued ID and a profile photo, and our team verifies each application before the provider can claim tasks. Ratings and reviews from past tasks are visible too." },
    ],
  },
  {
    title: "For providers",
    items: [
      { q: "How do I become a provider?", a: `Apply from the Become a Provider page. It takes under 5 minutes and is free. Our team reviews applications within ${APPLICATION_REVIEW_TIME}.` },
      { q: "How much do I earn?", a: `You keep ${MONEY_WORDS.providerShare}, and tips are commission-free. Top providers earn $500+ per week.` },
      { q: "When do I get paid?", a: `${MONEY_WORDS.release} Money arrives in your bank in 2-3 business days.` },
      { q: "Can I check whether a budget is fair?", a: "Yes. Before you claim a task, ask Felix to evaluate its budget against the distance and work involved." },
    ],
  },
];

export default function FaqPage() {
  return (
    <StaticPage title="Frequently Asked Questions" intro="Answers to the questions we hear most. Can't find yours? Contact us any time.">
      {GROUPS.map((group) => (
        <PageSection key={group.title} title={group.title}>
          <div className="divide-y rounded-lg border bg-card">
            {group.items.map((item) => (
              <details key={item.q} className="group px-4 py-3">
                <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-sm py-1 font-medium focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-details-marker]:hidden">
                  {item.q}
                  <ChevronDown className="size-4 shrink-0 transition-transform group-open:rotate-180" aria-hidden="true" />
                </summary>
                <p className="mt-2 text-muted-foreground">{item.a}</p>
              </details>
            ))}
          </div>
        </PageSection>
      ))}
      <CallToAction title="Still curious?" text="Walk through the whole process step by step.">
        <Button asChild>
          <Link href="/how-it-works">How It Works</Link>
        </Button>
      </CallToAction>
    </StaticPage>
  );
}
