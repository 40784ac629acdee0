import { useState, type FormEvent } from "react";
import { changePasswordBodySchema } from "@shared/account";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { PasswordInput } from "@/components/ui/password-input";
import { PasswordStrength } from "@/components/ui/password-strength";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/api";
import { useChangePassword } from "../api/change-password";

type Field = "currentPassword" | "newPassword" | "confirmPassword";

/** Current password required; every other session ends when it changes (docs/product.md, "Your account"). */
export function ChangePasswordForm() {
  const change = useChangePassword();
  const [values, setValues] = useState<Record<Field, string>>({ currentPassword: "", newPassword: "", confirmPassword: "" });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const bind = (field: Field) => ({ value: values[field], onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value })) });

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = changePasswordBodySchema.safeParse(values);
    const next: Partial<Record<Field, string>> = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (field === "currentPassword" || field === "newPassword") next[field] ??= issue.message;
      }
    }
    if (values.confirmPassword !== values.newPassword) next.confirmPassword = "The two new passwords are not the same. Type it again.";
    setErrors(next);
    if (!parsed.success || next.confirmPassword) return;
    change.mutate(parsed.data, {
      onSuccess: ({ signedOut }) => {
        setValues({ currentPassword: "", newPassword: "", confirmPassword: "" });
        toast({
          title: "Password changed",
          description: signedOut > 0 ? `You were signed out on ${signedOut} other ${signedOut === 1 ? "device" : "devices"}.` : "Use it the next time you sign in.",
        });
      },
      onError: (error) => {
        const message = errorMessage(error, "Could not change your password. Please try again.");
        if (/current password/i.test(message)) setErrors({ currentPassword: message });
        // Anything else about a password is the new one's policy (too short, too common, ...).
        else if (/password/i.test(message)) setErrors({ newPassword: message });
        else toast({ title: "Password not changed", description: message, variant: "destructive" });
      },
    });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-xl">
          <h2>Change password</h2>
        </CardTitle>
        <CardDescription>You stay signed in here; every other device is signed out.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="grid max-w-md gap-4">
          <FormField label="Current password" required error={errors.currentPassword}>
            <PasswordInput autoComplete="current-password" {...bind("currentPassword")} />
          </FormField>
          <div className="grid gap-2">
            <FormField label="New password" required error={errors.newPassword}>
              <PasswordInput autoComplete="new-password" {...bind("newPassword")} />
            </FormField>
            <PasswordStrength password={values.newPassword} />
          </div>
          <FormField label="Repeat the new password" required error={errors.confirmPassword}>
            <PasswordInput autoComplete="new-password" {...bind("confirmPassword")} />
          </FormField>
          <div>
            <Button type="submit" disabled={change.isPending}>
              {change.isPending ? "Changing..." : "Change password"}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
