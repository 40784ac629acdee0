import { BACKGROUND_CHECK_STATE_LABELS, checkDay } from "@shared/background-check-words";
import type { BackgroundCheck } from "@shared/background-checks";
import { Link } from "wouter";

// The applicant's view of their background check (docs/product.md, Background checks): where it
// stands, and with "needs review" the reason, what it means and how to dispute it.

export function BackgroundCheckNote({ check }: { check: BackgroundCheck | null }) {
  const state = check?.state ?? "not_started";
  return (
    <div className="grid gap-1 text-sm [overflow-wrap:anywhere]" role="group" aria-label="Background check">
      <p>
        <span className="font-medium">Background check: {BACKGROUND_CHECK_STATE_LABELS[state]}.</span>{" "}
        {state === "not_started" ? "An administrator runs it after reviewing your documents; approval needs a clear result." : null}
        {state === "pending" && check?.invitationUrl ? (
          <>
            Fill in the form from our background-check partner:{" "}
            <a href={check.invitationUrl} className="font-medium underline underline-offset-4" target="_blank" rel="noreferrer">
              open the background-check form
            </a>
            .
          </>
        ) : null}
        {state === "pending" && !check?.invitationUrl ? "We will tell you when the result is in." : null}
        {state === "clear" && check?.completedAt ? `Checked ${checkDay(check.completedAt)}.` : null}
      </p>
      {state === "consider" ? (
        <>
          <p>{check?.reason}</p>
          <p>
            Until an administrator clears it, you cannot claim tasks or make offers. If a record is wrong or is not yours, you can dispute it through the{" "}
            <Link href="/contact" className="font-medium underline underline-offset-4">
              contact form
            </Link>
            ; an administrator will look at it again and record a new check.
          </p>
        </>
      ) : null}
    </div>
  );
}
