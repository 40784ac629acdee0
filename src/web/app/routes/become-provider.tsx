import { CalendarClock, CheckCircle2, DollarSign, ShieldCheck, TrendingUp } from "lucide-react";
import { useLocation } from "wouter";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useProviderProfile } from "@/features/providers/api/get-provider-profile";
import { ApplicationForm } from "@/features/providers/components/application-form";
import { ApplicationStatus } from "@/features/providers/components/application-status";
import { useSignedInUser } from "../protected-route";
import { APPLICATION_REVIEW_TIME } from "@/lib/application-review";

const BENEFITS = [
  { icon: DollarSign, title: "Set Your Own Rates", text: "You decide what your time is worth." },
  { icon: CalendarClock, title: "Work When You Want", text: "Pick the tasks and hours that fit your life." },
  { icon: TrendingUp, title: "$500+ Per Week", text: "Top providers earn $500+ per week." },
];

const REQUIREMENTS = ["18 years or older", "Valid government-issued ID", "Reliable transportation", "Smartphone with GPS"];

/** The become-provider page (/become-provider; docs/product.md#verification). */
export default function BecomeProviderPage() {
  const user = useSignedInUser();
  const [, navigate] = useLocation();
  const profile = useProviderProfile(true);

  if (profile.isLoading) {
    return (
      <div className="flex min-h-[50vh] items-center justify-center">
        <Spinner iconClassName="size-8" />
      </div>
    );
  }

  const current = profile.data;
  const status = current?.verificationStatus;

  return (
    <div className="mx-auto max-w-4xl px-4 py-12 sm:px-6">
      <header className="mb-10 text-center">
        <h1 className="text-4xl font-bold tracking-tight">Turn Your Free Time Into Income</h1>
        <p className="mt-3 text-lg text-muted-foreground">Join Errandly as a verified provider and earn helping people in your area.</p>
      </header>

      <ul className="mb-10 grid gap-4 sm:grid-cols-3">
        {BENEFITS.map(({ icon: Icon, title, text }) => (
          <li key={title}>
            <Card className="h-full text-center">
              <CardContent className="grid justify-items-center gap-2 pt-6">
                <Icon className="size-8 text-primary" aria-hidden="true" />
                <h2 className="font-semibold">{title}</h2>
                <p className="text-sm text-muted-foreground">{text}</p>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>

      <Alert variant="info" role="status" className="mb-8">
        <ShieldCheck aria-hidden="true" />
        <AlertTitle>Verification Required</AlertTitle>
        <AlertDescription>
          Every provider is identity checked. We review applications within {APPLICATION_REVIEW_TIME} and let you know the outcome.
        </AlertDescription>
      </Alert>

      <section aria-labelledby="requirements-heading" className="mb-10">
        <h2 id="requirements-heading" className="mb-4 text-2xl font-semibold">
          Requirements
        </h2>
        <ul className="grid gap-2 sm:grid-cols-2">
          {REQUIREMENTS.map((item) => (
            <li key={item} className="flex items-center gap-2">
              <CheckCircle2 className="size-5 text-success" aria-hidden="true" />
              {item}
            </li>
          ))}
        </ul>
      </section>

      {status && status !== "rejected" ? (
        <ApplicationStatus status={status} check={current?.backgroundCheck ?? null} />
      ) : (
        <Card>
          <CardHeader>
            <CardTitle asChild>
              <h2>Provider Application</h2>
            </CardTitle>
            <CardDescription>
              {current?.verificationStatus === "rejected"
                ? `Your previous application was rejected${current.rejectionReason ? `: ${current.rejectionReason}` : "."} You can apply again below.`
                : "Fill in your details to apply. Fields marked * are required."}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ApplicationForm
              initial={{ fullName: `${user.firstName} ${user.lastName}`.trim(), email: user.email }}
              onSubmitted={() => navigate("/dashboard")}
            />
          </CardContent>
        </Card>
      )}
    </div>
  );
}
