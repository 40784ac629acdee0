import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { changeEmailBodySchema, type ChangeEmailBody } from "@shared/auth";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { errorMessage } from "@/lib/api";
import { useChangeEmail } from "../api/change-email";

interface Props {
  /** The address the account has now. */
  currentEmail: string;
}

/**
 * Change of e-mail: a link goes to the new address and the old one is told; the change happens
 * when the link is opened (docs/product.md, Accounts: recovery and verification).
 */
export function ChangeEmailForm({ currentEmail }: Props) {
  const form = useForm<ChangeEmailBody>({ resolver: zodResolver(changeEmailBodySchema), defaultValues: { newEmail: "", password: "" } });
  const mutation = useChangeEmail();
  const { errors } = form.formState;
  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={form.handleSubmit((body) => mutation.mutate(body, { onSuccess: () => form.reset({ newEmail: "", password: "" }) }))}
    >
      <p className="break-words text-sm text-muted-foreground">
        Your address now: <span className="font-medium text-foreground">{currentEmail}</span>
      </p>
      {mutation.isSuccess && (
        <Alert variant="success" role="status">
          <AlertDescription className="break-words">{mutation.data.message}</AlertDescription>
        </Alert>
      )}
      {mutation.isError && (
        <Alert variant="destructive">
          <AlertDescription>{errorMessage(mutation.error, "That did not work. Please try again in a moment.")}</AlertDescription>
        </Alert>
      )}
      <FormField label="New e-mail address" required error={errors.newEmail?.message}>
        <Input type="email" autoComplete="email" {...form.register("newEmail")} />
      </FormField>
      <FormField
        label="Current password"
        description="To make sure it is you. If you only sign in with single sign-on, leave it empty."
        error={errors.password?.message}
      >
        <PasswordInput autoComplete="current-password" {...form.register("password")} />
      </FormField>
      <Button type="submit" disabled={mutation.isPending}>
        {mutation.isPending ? "Sending..." : "Send confirmation link"}
      </Button>
    </form>
  );
}
