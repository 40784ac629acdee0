import { Camera, Car, CircleCheck, IdCard, Smartphone, UserCheck } from "lucide-react";
import { Link } from "wouter";
import { ID_DOCUMENT_MAX_BYTES, PROFILE_PHOTO_MAX_BYTES } from "@shared/constants";
import { Button } from "@/components/ui/button";
import { IconPoint } from "@/features/site/components/icon-point";
import { CallToAction, PageSection, StaticPage } from "@/features/site/components/static-page";
import { APPLICATION_REVIEW_TIME } from "@/lib/application-review";

const megabytes = (bytes: number) => `${bytes / 1_048_576} MB`;

const REQUIREMENTS = [
  { icon: UserCheck, title: "18 or older", text: "You must be at least 18 years old." },
  { icon: IdCard, title: "Valid government-issued ID", text: `A driver's license, state ID or passport, uploaded with your application (up to ${megabytes(ID_DOCUMENT_MAX_BYTES)}).` },
  { icon: Car, title: "Reliable transportation", text: "Most tasks involve driving or carrying items across town." },
  { icon: Smartphone, title: "Smartphone with GPS", text: "To find tasks near you, navigate routes and chat with customers." },
  { icon: Camera, title: "Profile photo", text: `A clear, recent photo of your face (up to ${megabytes(PROFILE_PHOTO_MAX_BYTES)}), so customers know who to expect.` },
];

const PROCESS = [
  "Fill in the application: your details, the services you offer, and your weekly availability.",
  "Upload your ID document and profile photo.",
  `Our team reviews your application, usually within ${APPLICATION_REVIEW_TIME}.`,
  "Once approved you are a Verified Provider and can claim tasks right away.",
];

export default function RequirementsPage() {
  return (
    <StaticPage title="Provider Requirements" intro="What you need to become a verified Errandly provider. Every provider is identity checked before taking a task.">
      <PageSection title="What you need">
        <ul className="grid gap-4 sm:grid-cols-2">
          {REQUIREMENTS.map((r) => (
            <IconPoint key={r.title} {...r} className="flex gap-4 rounded-lg border bg-card p-4" />
          ))}
        </ul>
      </PageSection>
      <PageSection title="How verification works">
        <ol className="space-y-3">
          {PROCESS.map((step) => (
            <li key={step} className="flex gap-3">
              <CircleCheck className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
              {step}
            </li>
          ))}
        </ol>
      </PageSection>
      <CallToAction title="Meet the requirements?" text="Apply now, or read about what providers get first.">
        <Button asChild>
          <Link href="/become-provider">Become a Provider</Link>
        </Button>
        <Button asChild variant="outline">
          <Link href="/benefits">Provider Benefits</Link>
        </Button>
      </CallToAction>
    </StaticPage>
  );
}
