import { MailWarning } from "lucide-react";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/lib/api";
import { useResendVerification } from "../api/resend-verification";

/**
 * For a signed-in person whose address is not confirmed yet: what it blocks and a way to get a new
 * link. Not dismissible: posting, applying and paying stay closed until it is done.
 */
export function VerifyEmailBanner({ email }: { email: string }) {
  const resend = useResendVerification();
  return (
    <div role="region" aria-label="Confirm your e-mail address" className="border-b border-warning/50 bg-warning/10 text-warning">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-2 text-sm sm:px-6">
        <MailWarning className="size-4 shrink-0" aria-hidden="true" />
        <p className="min-w-0 flex-1 break-words">
          Confirm your e-mail address: open the link we sent to <span className="font-semibold">{email}</span>. Posting tasks, applying
          and paying need it.
        </p>
        <Button type="button" size="sm" variant="outline" onClick={() => resend.mutate()} disabled={resend.isPending}>
          {resend.isPending ? "Sending..." : "Resend the link"}
        </Button>
        {(resend.isSuccess || resend.isError) && (
          <p role="status" className="w-full break-words font-medium">
            {resend.isSuccess ? resend.data.message : errorMessage(resend.error, "We could not send a link. Please try again in a moment.")}
          </p>
        )}
      </div>
    </div>
  );
}
