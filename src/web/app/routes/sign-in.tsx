import { useLocation, useSearch } from "wouter";
import { safeReturnTo } from "@shared/return-to";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { SignInForm, SignUpForm } from "@/features/auth/components/auth-forms";
import { PasskeySignInButton } from "@/features/auth/components/second-step-form";
import { SingleSignOn } from "@/features/auth/components/single-sign-on";

export default function SignInPage() {
  const params = new URLSearchParams(useSearch());
  const returnTo = safeReturnTo(params.get("returnTo"));
  // A full-page navigation, so every cached query starts fresh as the signed-in user.
  const done = () => window.location.assign(returnTo);
  const [, navigate] = useLocation();
  const secondStep = () => navigate(`/sign-in/second-step?returnTo=${encodeURIComponent(returnTo)}`);

  return (
    <div className="mx-auto flex max-w-md flex-col px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h1 className="text-2xl">Welcome to Errandly</h1>
          </CardTitle>
          <CardDescription>Sign in to post tasks, claim jobs and chat with the other side.</CardDescription>
        </CardHeader>
        <CardContent>
          {params.get("error") === "oidc" && (
            <Alert variant="destructive" className="mb-6">
              <AlertDescription>
                Single sign-on did not work. Please try again, or sign in with your email and password.
              </AlertDescription>
            </Alert>
          )}
          <SingleSignOn returnTo={returnTo} />
          <Tabs defaultValue={params.get("mode") === "signup" ? "signup" : "signin"}>
            <TabsList className="mb-6 grid w-full grid-cols-2">
              <TabsTrigger value="signin">Sign In</TabsTrigger>
              <TabsTrigger value="signup">Sign Up</TabsTrigger>
            </TabsList>
            <TabsContent value="signin">
              <SignInForm onSignedIn={done} onSecondStep={secondStep} />
              <div className="mt-4">
                <PasskeySignInButton onSignedIn={done} />
              </div>
            </TabsContent>
            <TabsContent value="signup">
              {/* Without a destination, the verification link leads to the dashboard. */}
              <SignUpForm returnTo={params.has("returnTo") ? returnTo : undefined} />
            </TabsContent>
          </Tabs>
        </CardContent>
      </Card>
    </div>
  );
}
