import { BadgeCheck, Clock, Search, XCircle } from "lucide-react";
import { Link } from "wouter";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { useProviderProfile } from "../api/get-provider-profile";
import { BackgroundCheckNote } from "./background-check-note";
import { APPLICATION_REVIEW_TIME } from "@/lib/application-review";

/** Dashboard verification-status alert (docs/product.md#verification); nothing without a profile. */
export function VerificationAlert() {
  const { data: profile } = useProviderProfile(true);
  switch (profile?.verificationStatus) {
    case "pending":
      return (
        <Alert variant="warning" role="status">
          <Clock aria-hidden="true" />
          <AlertTitle>Verification Pending</AlertTitle>
          <AlertDescription>
            <p>Your provider application has been received. We review applications within {APPLICATION_REVIEW_TIME}.</p>
            <BackgroundCheckNote check={profile.backgroundCheck} />
          </AlertDescription>
        </Alert>
      );
    case "under_review":
      return (
        <Alert variant="info" role="status">
          <Search aria-hidden="true" />
          <AlertTitle>Application Under Review</AlertTitle>
          <AlertDescription>
            <p>Our team is reviewing your documents. We will let you know as soon as a decision is made.</p>
            <BackgroundCheckNote check={profile.backgroundCheck} />
          </AlertDescription>
        </Alert>
      );
    case "approved":
      return (
        <Alert variant="success" role="status">
          <BadgeCheck aria-hidden="true" />
          <AlertTitle>Verified Provider</AlertTitle>
          <AlertDescription>You are verified and can claim tasks on the job board.</AlertDescription>
        </Alert>
      );
    case "rejected":
      return (
        <Alert variant="destructive" role="status">
          <XCircle aria-hidden="true" />
          <AlertTitle>Application Rejected</AlertTitle>
          <AlertDescription>
            {profile.rejectionReason ? <p>Reason: {profile.rejectionReason}</p> : null}
            <p>
              Please contact support to reapply, or{" "}
              <Link href="/become-provider" className="font-medium underline underline-offset-4">
                submit a new application
              </Link>
              .
            </p>
          </AlertDescription>
        </Alert>
      );
    default:
      return null;
  }
}
