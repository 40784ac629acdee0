import { zodResolver } from "@hookform/resolvers/zod";
import { useWatch } from "react-hook-form";
import { z } from "zod";
import { changePasswordBodySchema } from "@shared/account";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { PasswordInput } from "@/components/ui/password-input";
import { PasswordStrength } from "@/components/ui/password-strength";
import { toast } from "@/components/ui/use-toast";
import { useSchemaForm } from "@/lib/schema-form";
import { useChangePassword } from "../api/change-password";

// The server's schema, and the repeat of the new password, which only the form asks for; checked
// even while another field is refused (`when`), so every problem shows at the first press.
const formSchema = changePasswordBodySchema
  .extend({ confirmPassword: z.string() })
  .refine((values) => values.confirmPassword === values.newPassword, {
    path: ["confirmPassword"],
    error: "The two new passwords are not the same. Type it again.",
    when: () => true,
  });
type FormValues = z.infer<typeof formSchema>;
const EMPTY: FormValues = { currentPassword: "", newPassword: "", confirmPassword: "" };

/** Current password required; every other session ends when it changes (docs/product.md, "Your account"). */
export function ChangePasswordForm() {
  const change = useChangePassword();
  const form = useSchemaForm<FormValues>({ resolver: zodResolver(formSchema), defaultValues: EMPTY });
  const { errors } = form.formState;
  const newPassword = useWatch({ control: form.control, name: "newPassword" });

  const submit = form.handleSubmit(({ currentPassword, newPassword }) =>
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: ({ signedOut }) => {
          form.reset(EMPTY);
          toast({
            title: "Password changed",
            description: signedOut > 0 ? `You were signed out on ${signedOut} other ${signedOut === 1 ? "device" : "devices"}.` : "Use it the next time you sign in.",
          });
        },
        onError: (error) => {
          // A wrong current password, or the policy's refusal of the new one, lands under its field.
          const rest = form.showServerErrors(error, "Could not change your password. Please try again.");
          if (rest) toast({ title: "Password not changed", description: rest, variant: "destructive" });
        },
      },
    ),
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-xl">
          <h2>Change password</h2>
        </CardTitle>
        <CardDescription>You stay signed in here; every other device is signed out.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={(event) => void submit(event)} noValidate className="grid max-w-md gap-4">
          <FormField label="Current password" required error={errors.currentPassword?.message}>
            <PasswordInput autoComplete="current-password" {...form.register("currentPassword")} />
          </FormField>
          <div className="grid gap-2">
            <FormField label="New password" required error={errors.newPassword?.message}>
              <PasswordInput autoComplete="new-password" {...form.register("newPassword")} />
            </FormField>
            <PasswordStrength password={newPassword} />
          </div>
          <FormField label="Repeat the new password" required error={errors.confirmPassword?.message}>
            <PasswordInput autoComplete="new-password" {...form.register("confirmPassword")} />
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
