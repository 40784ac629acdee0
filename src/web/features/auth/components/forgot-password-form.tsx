import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { Link } from "wouter";
import { forgotPasswordBodySchema, type ForgotPasswordBody } from "@shared/auth";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { useSchemaForm } from "@/lib/schema-form";
import { useForgotPassword } from "../api/forgot-password";

/** Asks for a reset link; the answer is the same whether or not the address has an account. */
export function ForgotPasswordForm() {
  const form = useSchemaForm<ForgotPasswordBody>({ resolver: zodResolver(forgotPasswordBodySchema), defaultValues: { email: "" } });
  const mutation = useForgotPassword();
  // What the server refused that no field shows; a refusal naming the address goes under it.
  const [refusal, setRefusal] = useState<string | null>(null);
  const { errors } = form.formState;
  const submit = form.handleSubmit((body) =>
    mutation.mutate(body, { onError: (error) => setRefusal(form.showServerErrors(error, "That did not work. Please try again in a moment.")) }),
  );
  if (mutation.isSuccess) {
    return (
      <div className="space-y-4" role="status">
        <p className="break-words">{mutation.data.message}</p>
        <p className="text-sm text-muted-foreground">
          Nothing after a few minutes? Look in your spam folder, check the address, or ask again.
        </p>
        <div className="flex flex-wrap gap-3">
          <Button type="button" variant="outline" onClick={() => mutation.reset()}>
            Ask again
          </Button>
          <Button asChild variant="ghost">
            <Link href="/sign-in">Back to sign in</Link>
          </Button>
        </div>
      </div>
    );
  }
  return (
    <form className="space-y-4" noValidate onSubmit={(event) => void submit(event)}>
      {mutation.isError && refusal && (
        <Alert variant="destructive">
          <AlertDescription>{refusal}</AlertDescription>
        </Alert>
      )}
      <FormField label="Email" required description="The address you sign in with." error={errors.email?.message}>
        <Input type="email" autoComplete="email" {...form.register("email")} />
      </FormField>
      <Button type="submit" className="w-full" disabled={mutation.isPending}>
        {mutation.isPending ? "Sending..." : "Send me a reset link"}
      </Button>
      <p className="text-center text-sm">
        <Link href="/sign-in" className="font-medium text-primary underline-offset-4 hover:underline">
          Back to sign in
        </Link>
      </p>
    </form>
  );
}
