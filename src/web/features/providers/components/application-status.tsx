import { BadgeCheck, Clock, Search } from "lucide-react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { BackgroundCheck } from "@shared/background-checks";
import { APPLICATION_REVIEW_TIME } from "@/lib/application-review";
import { BackgroundCheckNote } from "./background-check-note";

const STATUS = {
  pending: { icon: Clock, title: "Application Pending", text: `We have your application and will review it within ${APPLICATION_REVIEW_TIME}.` },
  under_review: { icon: Search, title: "Application Under Review", text: "Our team is reviewing your documents now. We'll notify you of the decision." },
  approved: { icon: BadgeCheck, title: "You're a Verified Provider", text: "Your application was approved. Browse the job board and claim your first task." },
} as const;

/** Shown instead of the form while an application is open or approved. */
export function ApplicationStatus({ status, check }: { status: keyof typeof STATUS; check: BackgroundCheck | null }) {
  const copy = STATUS[status];
  const Icon = copy.icon;
  return (
    <Card>
      <CardHeader className="items-center text-center">
        <Icon className="size-10 text-primary" aria-hidden="true" />
        <CardTitle asChild>
          <h2>{copy.title}</h2>
        </CardTitle>
        <CardDescription>{copy.text}</CardDescription>
      </CardHeader>
      <CardContent className="grid justify-items-center gap-4">
        {status === "approved" ? null : <BackgroundCheckNote check={check} />}
        <div className="flex flex-wrap justify-center gap-3">
          <Button asChild>
            <Link href="/dashboard">Go to Dashboard</Link>
          </Button>
          {status === "approved" ? (
            <Button asChild variant="outline">
              <Link href="/job-board">Browse Jobs</Link>
            </Button>
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
}
