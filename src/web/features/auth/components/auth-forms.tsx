import { useMutation } from "@tanstack/react-query";
import { MailCheck } from "lucide-react";
import { useState } from "react";
import { useWatch } from "react-hook-form";
import { Link } from "wouter";
import { PASSWORD_MIN_LENGTH } from "@shared/constants";
import type { LoginBody, RegisterBody, User } from "@shared/auth";
import type { SecondFactorNeeded } from "@shared/security";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { PasswordStrength } from "@/components/ui/password-strength";
import { apiRequest } from "@/lib/api";
import { lazyResolver } from "@/lib/lazy-resolver";
import { useSchemaForm } from "@/lib/schema-form";
import { useRegister } from "../api/register";

// Sign-in and sign-up share the server's zod schemas, so the form and the API agree on every rule.
// The schemas load at a form's first focus (auth-resolvers.ts), not with the page.
const loadResolvers = () => import("./auth-resolvers");
const loginResolver = lazyResolver(() => loadResolvers().then((m) => m.loginResolver));
const registerResolver = lazyResolver(() => loadResolvers().then((m) => m.registerResolver));
const prefetchResolvers = () => void loadResolvers();

interface Props {
  /** Called after the session cookie is set. */
  onSignedIn: (user: User) => void;
  /** Called when the password was right and the account asks for its second factor (202). */
  onSecondStep: () => void;
}

export function SignInForm({ onSignedIn, onSecondStep }: Props) {
  const form = useSchemaForm<LoginBody>({ resolver: loginResolver, defaultValues: { email: "", password: "" } });
  // What the server refused that no field shows; a refusal naming a field goes under it.
  const [refusal, setRefusal] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (body: LoginBody) => apiRequest<User | SecondFactorNeeded>("POST", "/api/auth/login", body),
    onSuccess: (answer) => ("secondFactor" in answer ? onSecondStep() : onSignedIn(answer)),
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit((body) =>
    mutation.mutate(body, { onError: (error) => setRefusal(form.showServerErrors(error, "Sign in failed. Please try again.")) }),
  );
  return (
    <form className="space-y-4" noValidate onFocus={prefetchResolvers} onSubmit={(event) => void submit(event)}>
      {mutation.isError && refusal && (
        <Alert variant="destructive">
          <AlertDescription>{refusal}</AlertDescription>
        </Alert>
      )}
      <FormField label="Email" required error={errors.email?.message}>
        <Input type="email" autoComplete="email" {...form.register("email")} />
      </FormField>
      <FormField label="Password" required error={errors.password?.message}>
        <PasswordInput autoComplete="current-password" {...form.register("password")} />
      </FormField>
      <div className="-mt-2 text-right text-sm">
        <Link href="/forgot-password" className="font-medium text-primary underline-offset-4 hover:underline">
          Forgot password?
        </Link>
      </div>
      <Button type="submit" className="w-full" disabled={mutation.isPending}>
        {mutation.isPending ? "Signing in..." : "Sign In"}
      </Button>
    </form>
  );
}

/**
 * Registering signs nobody in and answers alike for a new and a taken address (docs/product.md,
 * Accounts: recovery and verification): the form ends on "check your inbox".
 */
export function SignUpForm({ returnTo }: { returnTo?: string }) {
  const form = useSchemaForm<RegisterBody>({
    resolver: registerResolver,
    defaultValues: { email: "", password: "", firstName: "", lastName: "" },
  });
  // What the server refused that no field shows; the policy's refusal of a password goes under it.
  const [refusal, setRefusal] = useState<string | null>(null);
  const [password, email, firstName, lastName] = useWatch({
    control: form.control,
    name: ["password", "email", "firstName", "lastName"],
  });
  const mutation = useRegister();
  const { errors } = form.formState;
  const submit = form.handleSubmit((body) =>
    mutation.mutate({ ...body, returnTo }, { onError: (error) => setRefusal(form.showServerErrors(error, "Sign up failed. Please try again.")) }),
  );
  if (mutation.isSuccess) {
    return (
      <div className="space-y-4 text-center" role="status">
        <MailCheck className="mx-auto size-10 text-primary" aria-hidden="true" />
        <h2 className="text-xl font-semibold">Check your inbox</h2>
        <p className="break-words">{mutation.data.message}</p>
        <p className="text-sm text-muted-foreground">
          Open the link in that e-mail to confirm your address and sign in. Nothing there? Look in your spam folder, or sign in with
          your password and send a new link from the banner at the top of the page.
        </p>
        <Button type="button" variant="outline" className="w-full" onClick={() => mutation.reset()}>
          Use another address
        </Button>
      </div>
    );
  }
  return (
    <form className="space-y-4" noValidate onFocus={prefetchResolvers} onSubmit={(event) => void submit(event)}>
      {mutation.isError && refusal && (
        <Alert variant="destructive">
          <AlertDescription>{refusal}</AlertDescription>
        </Alert>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="First name" required error={errors.firstName?.message}>
          <Input autoComplete="given-name" {...form.register("firstName")} />
        </FormField>
        <FormField label="Last name" required error={errors.lastName?.message}>
          <Input autoComplete="family-name" {...form.register("lastName")} />
        </FormField>
      </div>
      <FormField label="Email" required error={errors.email?.message}>
        <Input type="email" autoComplete="email" {...form.register("email")} />
      </FormField>
      <div className="grid gap-2">
        <FormField
          label="Password"
          required
          description={`At least ${PASSWORD_MIN_LENGTH} characters, hard to guess: three or four unrelated words work well.`}
          error={errors.password?.message}
        >
          {/* A refusal of the earlier password, the server's included, must not stay above the meter of the one typed now. */}
          <PasswordInput
            autoComplete="new-password"
            {...form.register("password", {
              onChange: () => {
                mutation.reset();
                form.clearErrors("password");
              },
            })}
          />
        </FormField>
        <PasswordStrength password={password} owner={{ email, firstName, lastName }} />
      </div>
      <Button type="submit" className="w-full" disabled={mutation.isPending}>
        {mutation.isPending ? "Creating account..." : "Create Account"}
      </Button>
    </form>
  );
}
