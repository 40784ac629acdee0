import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useWatch } from "react-hook-form";
import { Link } from "wouter";
import { PASSWORD_MIN_LENGTH } from "@shared/constants";
import { RESET_LINK_INVALID_MESSAGE, resetPasswordBodySchema, type ResetPasswordBody, type User } from "@shared/auth";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { PasswordInput } from "@/components/ui/password-input";
import { PasswordStrength } from "@/components/ui/password-strength";
import { Spinner } from "@/components/ui/spinner";
import { ApiError, errorMessage } from "@/lib/api";
import { useSchemaForm } from "@/lib/schema-form";
import { useCheckResetLink } from "../api/check-reset-link";
import { useResetPassword } from "../api/reset-password";

const formSchema = resetPasswordBodySchema.pick({ password: true });
type FormValues = Pick<ResetPasswordBody, "password">;

interface Props {
  /** The token of the e-mailed link; null when the link came without one. */
  token: string | null;
  /** Called once the password is set and this device is signed in. */
  onDone: (user: User) => void;
}

function BadLink({ message }: { message: string }) {
  return (
    <div className="space-y-4">
      <Alert variant="destructive">
        <AlertDescription>{message}</AlertDescription>
      </Alert>
      <p className="text-sm text-muted-foreground">Reset links work once, for 60 minutes. Ask for a new one and use the newest e-mail.</p>
      <Button asChild className="w-full">
        <Link href="/forgot-password">Send me a new link</Link>
      </Button>
    </div>
  );
}

/** The new password for the e-mailed link (docs/product.md, Accounts: recovery and verification). */
export function ResetPasswordForm({ token, onDone }: Props) {
  const form = useSchemaForm<FormValues>({ resolver: zodResolver(formSchema), defaultValues: { password: "" } });
  // What the server refused that no field shows; the policy's refusal of the password goes under it.
  const [refusal, setRefusal] = useState<string | null>(null);
  const password = useWatch({ control: form.control, name: "password" });
  const mutation = useResetPassword();
  // Asked before the form shows: a used or expired link says so before a password is typed.
  const link = useCheckResetLink(token);
  const { errors } = form.formState;
  if (!token) return <BadLink message="This link is incomplete. Open it again from the e-mail, or ask for a new one." />;
  if (link.isPending) {
    return (
      <div className="flex items-center gap-3" aria-busy="true">
        <Spinner />
        <p>Checking your link...</p>
      </div>
    );
  }
  if (link.isError) {
    return <BadLink message={link.error instanceof ApiError && link.error.status === 400 ? `${link.error.serverMessage}.` : errorMessage(link.error, "We could not check this link.")} />;
  }
  // A 400 here is the link itself (expired, used or unknown); the form cannot fix it.
  const linkRefused =
    mutation.error instanceof ApiError &&
    (mutation.error.serverMessage === RESET_LINK_INVALID_MESSAGE || mutation.error.serverMessage.startsWith("body.token"));
  if (linkRefused && mutation.error instanceof ApiError) {
    return <BadLink message={mutation.error.serverMessage} />;
  }
  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={form.handleSubmit(({ password }) =>
        mutation.mutate(
          { token, password },
          { onSuccess: (user) => user && onDone(user), onError: (error) => setRefusal(form.showServerErrors(error, "That did not work. Please try again in a moment.")) },
        ),
      )}
    >
      {mutation.isError && refusal && (
        <Alert variant="destructive">
          <AlertDescription>{refusal}</AlertDescription>
        </Alert>
      )}
      <div className="grid gap-2">
        <FormField
          label="New password"
          required
          description={`At least ${PASSWORD_MIN_LENGTH} characters, hard to guess. You will be signed out everywhere else.`}
          error={errors.password?.message}
        >
          <PasswordInput autoComplete="new-password" {...form.register("password", { onChange: () => mutation.reset() })} />
        </FormField>
        <PasswordStrength password={password} />
      </div>
      <Button type="submit" className="w-full" disabled={mutation.isPending}>
        {mutation.isPending ? "Saving..." : "Set new password and sign in"}
      </Button>
    </form>
  );
}
