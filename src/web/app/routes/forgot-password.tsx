import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ForgotPasswordForm } from "@/features/auth/components/forgot-password-form";

/** /forgot-password: asks for a reset link (docs/product.md, Accounts: recovery and verification). */
export default function ForgotPasswordPage() {
  return (
    <div className="mx-auto flex max-w-md flex-col px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h1 className="text-2xl">Forgot your password?</h1>
          </CardTitle>
          <CardDescription>Type the address you sign in with and we will e-mail you a link to choose a new password.</CardDescription>
        </CardHeader>
        <CardContent>
          <ForgotPasswordForm />
        </CardContent>
      </Card>
    </div>
  );
}
