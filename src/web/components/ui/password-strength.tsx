import * as React from "react";
import { PASSWORD_MIN_LENGTH } from "@shared/constants";
import { PASSWORD_MIN_SCORE, passwordStrengthLabel, passwordStrengthOptions, passwordUserInputs } from "@shared/password-strength";

import { cn } from "@/lib/cn";

// The strength meter under a new-password field (docs/product.md "Passwords"). It scores with the
// same zxcvbn rule as the server (src/shared/password-strength.ts); zxcvbn and its word lists
// (~400 KB) are imported on first use, a chunk of their own that only forms with a meter load.

interface Estimate {
  score: number;
  warning: string | null;
}
type Estimator = (password: string, userInputs: string[]) => Estimate;

let estimator: Promise<Estimator> | undefined;
function loadEstimator(): Promise<Estimator> {
  estimator ??= Promise.all([import("@zxcvbn-ts/core"), import("@zxcvbn-ts/language-common")]).then(([core, common]) => {
    const zxcvbn = new core.ZxcvbnFactory(passwordStrengthOptions(common));
    return (password, userInputs) => {
      const result = zxcvbn.check(password, userInputs);
      return { score: result.score, warning: result.feedback.warning };
    };
  });
  return estimator;
}

const BAR_COLOURS = ["bg-destructive", "bg-destructive", "bg-warning", "bg-info", "bg-success"] as const;

export interface PasswordStrengthProps {
  password: string;
  /** Whose password it is: a password built from their name or e-mail scores low. */
  owner?: { email?: string; firstName?: string; lastName?: string };
  className?: string;
}

export function PasswordStrength({ password, owner, className }: PasswordStrengthProps) {
  const [estimate, setEstimate] = React.useState<Estimate | null>(null);
  const [failed, setFailed] = React.useState(false);
  const deferred = React.useDeferredValue(password);
  const inputs = passwordUserInputs(owner ?? {}).join("\n");

  React.useEffect(() => {
    if (deferred === "") return;
    let current = true;
    loadEstimator().then(
      (estimate) => {
        if (current) setEstimate(estimate(deferred, inputs.split("\n")));
      },
      () => {
        if (current) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, [deferred, inputs]);

  if (password === "" || failed) return null;
  const tooShort = password.length < PASSWORD_MIN_LENGTH;
  const score = tooShort ? Math.min(estimate?.score ?? 0, 1) : (estimate?.score ?? 0);
  const label = estimate || tooShort ? passwordStrengthLabel(score) : null;
  const accepted = !tooShort && score >= PASSWORD_MIN_SCORE;
  const segments = Math.max(1, score);

  return (
    <div className={cn("grid gap-1.5", className)} data-testid="password-strength">
      <div className="grid grid-cols-4 gap-1" aria-hidden="true">
        {[1, 2, 3, 4].map((segment) => (
          <div
            key={segment}
            className={cn("h-1.5 rounded-full", label && segment <= segments ? BAR_COLOURS[score] : "bg-muted")}
          />
        ))}
      </div>
      <div role="status" aria-live="polite" className="text-sm">
        {label ? (
          <>
            <p>
              <span className="text-muted-foreground">Password strength: </span>
              <span className="font-medium text-foreground">{label}</span>
            </p>
            {tooShort ? (
              <p className="text-muted-foreground">Use at least {PASSWORD_MIN_LENGTH} characters.</p>
            ) : estimate?.warning ? (
              <p className="text-muted-foreground">{estimate.warning}</p>
            ) : null}
            {!tooShort && !accepted ? (
              <p className="text-muted-foreground">Not strong enough yet: add another word or two that do not belong together.</p>
            ) : null}
          </>
        ) : (
          <p className="text-muted-foreground">Checking strength…</p>
        )}
      </div>
    </div>
  );
}
