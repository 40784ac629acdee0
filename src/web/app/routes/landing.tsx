import {
  ArrowRight,
  BadgeCheck,
  CircleCheck,
  ClipboardList,
  Clock,
  DollarSign,
  Headphones,
  Handshake,
  ShieldCheck,
  Star,
  TrendingUp,
  Wallet,
} from "lucide-react";
import { lazy, Suspense, useState, type FormEvent } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { CATEGORIES } from "@shared/constants";
import { MONEY_WORDS } from "@shared/money-words";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { useHydrating } from "@/lib/hydration";
import { CategoryCard } from "@/features/site/components/category-card";
import { IconPoint } from "@/features/site/components/icon-point";
import { POST_TASK_RETURN_PARAM } from "@/features/tasks/components/post-task-return";

// The dialog (wizard, Felix, address search) is loaded on the first click, so the landing page's
// own chunk stays small for visitors who only read it.
const PostTaskDialogWithFelix = lazy(() =>
  import("@/app/post-task-dialog").then((m) => ({ default: m.PostTaskDialogWithFelix })),
);

const HERO_STATS = [
  { value: "200+", label: "Mile radius" },
  { value: "10+", label: "Years combined experience" },
  { value: "100%", label: "Satisfaction focused" },
];

const STEPS = [
  {
    icon: ClipboardList,
    title: "Post Your Task",
    text: "Describe what you need, set your budget (Felix can suggest a fair one) and pay securely. Your payment is held in escrow.",
  },
  {
    icon: Handshake,
    title: "Get Matched",
    text: "A verified local provider claims your task. Chat with them in the app to settle the details.",
  },
  {
    icon: CircleCheck,
    title: "Task Completed",
    text: "Your provider gets it done. Payment is released once the work is complete, and you rate the provider.",
  },
];

const TRUST = [
  { icon: TrendingUp, value: "99.8%", label: "Success rate" },
  { icon: Headphones, value: "24/7", label: "Support" },
  { icon: Clock, value: "< 15 min", label: "Average match time" },
  { icon: BadgeCheck, value: "100%", label: "Verified providers" },
];

const TRUST_POINTS = [
  // Approval needs a clear background check (docs/decisions/064-background-checks.md).
  {
    icon: ShieldCheck,
    title: "Identity and background checked",
    text: "Our team reviews every provider's government-issued ID and photo, and approves them only after a clear background check.",
  },
  { icon: Wallet, title: "Payment held in escrow", text: "Your payment is held until the task is marked complete. If something goes wrong, report a problem and the money stays held until it is sorted out." },
  { icon: Star, title: "Ratings and reviews", text: "Both sides review each other after every task, so quality stays visible." },
];

const EARN_POINTS = [
  "Set your own rates and choose the tasks you want",
  "Top providers earn $500+ per week",
  `Keep ${MONEY_WORDS.providerShare}, and 100% of your tips`,
  "Free to join, and applying takes under 5 minutes",
];

/** A form's submit handled in place once the page's scripts run (see the hero's buttons). */
const submitted = (action: () => void) => (event: FormEvent) => {
  event.preventDefault();
  action();
};

export default function LandingPage() {
  const [, navigate] = useLocation();
  // "?post=task" is the way back from sign-in to the wizard and its draft (docs/product.md#post-a-task-draft).
  // Not while hydrating: the build rendered this page without its query (lib/hydration.ts).
  const hydrating = useHydrating();
  const search = useSearch();
  const returning = !hydrating && new URLSearchParams(search).get(POST_TASK_RETURN_PARAM) === "task";
  const [postOpen, setPostOpen] = useState(false);
  const [postRequested, setPostRequested] = useState(false);
  // Derived state latched during render (React's documented pattern): the wizard opens in the first
  // render after hydration, or in the first render at all on a client-rendered visit.
  const [returned, setReturned] = useState(false);
  if (returning && !returned) {
    setReturned(true);
    setPostRequested(true);
    setPostOpen(true);
  }

  // Anyone may type a task; the wizard asks to sign in only at "Post Task", keeping the draft.
  const postTask = () => {
    setPostRequested(true);
    setPostOpen(true);
  };

  // The page asks a visitor to sign in and brings them back (ProtectedRoute).
  const becomeProvider = () => navigate("/become-provider");

  return (
    <>
      <section aria-labelledby="hero-title" className="border-b bg-accent/40">
        <div className="mx-auto max-w-7xl px-4 py-16 text-center sm:px-6 lg:py-24">
          <h1 id="hero-title" className="mx-auto max-w-3xl text-4xl font-bold tracking-tight sm:text-6xl">
            Get your errands and tasks done by verified local providers
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-muted-foreground">
            Post a task with your budget, get matched with an identity-checked provider, and pay only when the work is done.
            Your payment is held safely in escrow the whole time.
          </p>
          {/* Each button submits a plain form, so a tap works before the page's scripts have run on
              a slow phone: "/?post=task" opens the wizard once they have, and /become-provider
              asks a visitor to sign in. Once they have run, the buttons act in place. */}
          <div className="mt-10 flex flex-col justify-center gap-4 sm:flex-row">
            <form action="/" method="get" onSubmit={submitted(postTask)} className="contents">
              <input type="hidden" name={POST_TASK_RETURN_PARAM} value="task" />
              <Button type="submit" size="lg">
                Post a Task
                <ArrowRight aria-hidden="true" />
              </Button>
            </form>
            <form action="/become-provider" method="get" onSubmit={submitted(becomeProvider)} className="contents">
              <Button type="submit" size="lg" variant="outline">
                Become a Provider
              </Button>
            </form>
          </div>
          <dl className="mx-auto mt-14 grid max-w-3xl grid-cols-1 gap-6 sm:grid-cols-3">
            {HERO_STATS.map((s) => (
              <div key={s.label} className="flex flex-col-reverse">
                <dt className="text-sm text-muted-foreground">{s.label}</dt>
                <dd className="text-3xl font-bold text-primary">{s.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <section aria-labelledby="how-title" className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
        <div className="text-center">
          <h2 id="how-title" className="text-3xl font-bold tracking-tight">
            How It Works
          </h2>
          <p className="mt-3 text-muted-foreground">Three steps from your to-do list to done.</p>
        </div>
        <ol className="mt-10 grid gap-6 md:grid-cols-3">
          {STEPS.map((step, i) => (
            <li key={step.title}>
              <Card className="h-full text-center">
                <CardHeader className="items-center">
                  <span className="flex size-12 items-center justify-center rounded-full bg-primary text-primary-foreground">
                    <step.icon className="size-6" aria-hidden="true" />
                  </span>
                  <CardTitle asChild className="text-xl">
                    <h3>
                      {i + 1}. {step.title}
                    </h3>
                  </CardTitle>
                </CardHeader>
                <CardContent>
                  <p className="text-muted-foreground">{step.text}</p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="services-title" className="border-y bg-muted/40">
        <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
          <div className="text-center">
            <h2 id="services-title" className="text-3xl font-bold tracking-tight">
              Our Services
            </h2>
            <p className="mt-3 text-muted-foreground">Whatever is on your list, there is a provider nearby who can help.</p>
          </div>
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {CATEGORIES.map((category) => (
              <li key={category.value}>
                <CategoryCard
                  category={category}
                  heading="h3"
                  linkText="Browse Tasks"
                  linkName={`Browse Tasks: ${category.label}`}
                />
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="trust-title" className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
        <div className="text-center">
          <h2 id="trust-title" className="text-3xl font-bold tracking-tight">
            Trust and Safety
          </h2>
          <p className="mt-3 text-muted-foreground">Built so that both sides of every task can rely on each other.</p>
        </div>
        <dl className="mt-10 grid grid-cols-2 gap-6 lg:grid-cols-4">
          {TRUST.map((t) => (
            <div key={t.label} className="flex flex-col-reverse items-center rounded-lg border bg-card p-6 text-center">
              <dt className="mt-1 text-sm text-muted-foreground">{t.label}</dt>
              <dd className="flex flex-col items-center gap-2 text-3xl font-bold">
                <t.icon className="size-7 text-primary" aria-hidden="true" />
                {t.value}
              </dd>
            </div>
          ))}
        </dl>
        <ul className="mt-10 grid gap-6 md:grid-cols-3">
          {TRUST_POINTS.map((p) => (
            <IconPoint key={p.title} {...p} />
          ))}
        </ul>
        <p className="mt-8 text-center text-sm text-muted-foreground">
          Questions? Our support team is here 24/7 and replies within 24 hours.
        </p>
      </section>

      <section aria-labelledby="earn-title" className="bg-primary text-primary-foreground">
        <div className="mx-auto grid max-w-7xl items-center gap-10 px-4 py-16 sm:px-6 lg:grid-cols-2">
          <div>
            <h2 id="earn-title" className="text-3xl font-bold tracking-tight">
              Earn on Your Schedule
            </h2>
            <p className="mt-4 text-lg">
              Become a provider and turn your free hours into income. Pick the tasks that fit your day and get paid
              securely for every one.
            </p>
            <Button asChild size="lg" variant="secondary" className="mt-8">
              <Link href="/become-provider">
                Start Earning Today
                <ArrowRight aria-hidden="true" />
              </Link>
            </Button>
          </div>
          <ul className="space-y-4">
            {EARN_POINTS.map((point) => (
              <li key={point} className="flex items-start gap-3 text-lg">
                <DollarSign className="mt-1 size-5 shrink-0" aria-hidden="true" />
                {point}
              </li>
            ))}
          </ul>
        </div>
      </section>

      {postRequested ? (
        <Suspense fallback={null}>
          <PostTaskDialogWithFelix open={postOpen} onOpenChange={setPostOpen} />
        </Suspense>
      ) : null}
    </>
  );
}
