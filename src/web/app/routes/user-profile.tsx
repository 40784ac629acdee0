import { Link, useParams } from "wouter";
import { Button } from "@/components/ui/button";
import { LoadingRegion } from "@/components/ui/skeleton";
import { useUserProfile } from "@/features/profiles/api/get-user-profile";
import { BlockButton } from "@/features/moderation/components/block-button";
import { ReportButton } from "@/features/moderation/components/report-button";
import { ProfileReviews } from "@/features/profiles/components/profile-reviews";
import { ProfileSummary, ProfileSummarySkeleton } from "@/features/profiles/components/profile-summary";
import { useDocumentTitle } from "@/features/site/hooks/use-document-title";
import { ApiError } from "@/lib/api";
import { useUser } from "@/lib/current-user";
import { requestProviderPath } from "@/lib/profile-path";

/** /users/{id}: a person's public profile (docs/product.md, "People you can see"). */
export default function UserProfilePage() {
  const { id = "" } = useParams<{ id: string }>();
  const profile = useUserProfile(id);
  const { user } = useUser();
  const missing = profile.error instanceof ApiError && (profile.error.status === 404 || profile.error.status === 400);
  useDocumentTitle(profile.data ? `${profile.data.displayName}'s profile` : missing ? "Profile not found" : "Profile");

  if (profile.isLoading) {
    // The page's own column and card, so the profile takes their place without moving.
    return (
      <LoadingRegion label="Loading profile..." className="mx-auto grid max-w-4xl gap-6 px-4 py-8 sm:px-6">
        <ProfileSummarySkeleton />
      </LoadingRegion>
    );
  }

  if (!profile.data) {
    return (
      <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
        <h1 className="text-3xl font-bold">{missing ? "Profile not found" : "Could not load this profile"}</h1>
        <p className="mt-2 text-muted-foreground">
          {missing
            ? "This profile does not exist. The link may be mistyped, or the account was closed."
            : "Something went wrong while loading this profile. Please try again in a moment."}
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          {missing ? null : <Button onClick={() => void profile.refetch()}>Try again</Button>}
          <Button asChild variant={missing ? "default" : "outline"}>
            <Link href="/providers">Browse providers</Link>
          </Button>
          <Button asChild variant="outline">
            <Link href="/job-board">Go to the job board</Link>
          </Button>
        </div>
      </div>
    );
  }

  const isMe = user?.id === profile.data.id;
  return (
    <div className="mx-auto grid max-w-4xl gap-6 px-4 py-8 sm:px-6">
      {isMe ? (
        <p role="note" className="rounded-md border bg-muted/50 px-4 py-3 text-sm">
          This is your public profile, as everyone else sees it. Your e-mail, phone, street address and full last name are never shown.
          {profile.data.verifiedProvider ? (
            <>
              {" "}
              <Link href="/provider/profile" className="font-medium underline">
                Edit your provider profile
              </Link>
            </>
          ) : null}
        </p>
      ) : null}
      <ProfileSummary profile={profile.data} />
      {user && !isMe ? (
        <div className="flex flex-wrap gap-2">
          {/* docs/product.md, Requesting a provider: a task offered to this provider first. */}
          {profile.data.verifiedProvider ? (
            <Button asChild>
              <Link href={requestProviderPath(profile.data.id)}>
                Request<span className="sr-only"> {profile.data.displayName}</span>
              </Link>
            </Button>
          ) : null}
          <ReportButton targetType="user" targetId={profile.data.id} what={profile.data.displayName} />
          <BlockButton userId={profile.data.id} name={profile.data.displayName} />
        </div>
      ) : null}
      <ProfileReviews
        reviews={profile.data.reviews}
        total={profile.data.rating.count}
        report={
          user
            ? (review) =>
                review.reviewerId === user.id ? null : (
                  <ReportButton compact targetType="review" targetId={review.id} what={`the review by ${review.reviewerDisplayName}`} />
                )
            : undefined
        }
      />
    </div>
  );
}
