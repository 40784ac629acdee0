import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useProviderProfile } from "@/features/providers/api/get-provider-profile";
import { ProfileForm } from "@/features/providers/components/profile-form";
import { useUser } from "@/lib/current-user";
import { userProfilePath } from "@/lib/profile-path";

/** /provider/profile: a provider edits their public profile. */
export default function ProviderProfilePage() {
  const profile = useProviderProfile(true);
  const { user } = useUser();

  if (profile.isLoading) {
    return (
      <div className="flex min-h-[50vh] items-center justify-center">
        <Spinner iconClassName="size-8" />
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      <h1 className="mb-8 text-3xl font-bold tracking-tight">My Provider Profile</h1>
      {profile.data ? (
        <Card>
          <CardHeader>
            <CardTitle asChild>
              <h2>Public Profile</h2>
            </CardTitle>
            <CardDescription>
              What customers see in the provider directory and on your public profile once you are verified.
              {user ? (
                <>
                  {" "}
                  <Link href={userProfilePath(user.id)} className="font-medium text-primary underline">
                    View your public profile
                  </Link>
                </>
              ) : null}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ProfileForm profile={profile.data} />
          </CardContent>
        </Card>
      ) : (
        <div className="grid justify-items-start gap-4">
          <p className="text-muted-foreground">You have not applied to become a provider yet.</p>
          <Button asChild>
            <Link href="/become-provider">Become a Provider</Link>
          </Button>
        </div>
      )}
    </div>
  );
}
