import { useState, type FormEvent } from "react";
import type { Account } from "@shared/account";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/api";
import { useAccount } from "../api/get-account";
import { useUpdateProfile } from "../api/update-profile";

type Errors = Partial<Record<"firstName" | "lastName", string>>;

/**
 * First and last name, checked with the server's own schema before it is sent. While the account
 * loads, the same card holds the same fields, disabled: a shorter placeholder moved the photo card
 * below it by 132 px at 390 px when the form arrived (CLS 0.07, issue 27).
 */
export function ProfileNameForm() {
  const account = useAccount();
  return account.data ? <NameForm account={account.data} /> : <NameCard loading />;
}

// The name's rules are the server's zod schema (src/shared/account.ts), loaded at the form's first
// focus and read at its submit: the settings page's first load leaves zod out (issue 17,
// docs/decisions/041-forms-loaded-on-first-use.md).
const loadRules = () => import("@shared/account");

function NameForm({ account }: { account: Account }) {
  const update = useUpdateProfile();
  const [firstName, setFirstName] = useState(account.firstName);
  const [lastName, setLastName] = useState(account.lastName);
  const [errors, setErrors] = useState<Errors>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    const { profileBodySchema } = await loadRules();
    const parsed = profileBodySchema.safeParse({ firstName, lastName });
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (field === "firstName" || field === "lastName") next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    update.mutate(parsed.data, {
      onSuccess: () => toast({ title: "Name saved", description: "Your new name is shown across Errandly." }),
      onError: (error) => toast({ title: "Could not save your name", description: errorMessage(error, "Please try again."), variant: "destructive" }),
    });
  }

  return (
    <NameCard
      onSubmit={(event) => void submit(event)}
      first={{ value: firstName, onChange: setFirstName, error: errors.firstName }}
      last={{ value: lastName, onChange: setLastName, error: errors.lastName }}
      saving={update.isPending}
    />
  );
}

interface NameField {
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}

const EMPTY: NameField = { value: "", onChange: () => undefined };

/** The card of the name form, the same box loading and loaded. */
function NameCard({
  loading = false,
  onSubmit,
  first = EMPTY,
  last = EMPTY,
  saving = false,
}: {
  loading?: boolean;
  onSubmit?: (event: FormEvent) => void;
  first?: NameField;
  last?: NameField;
  saving?: boolean;
}) {
  return (
    <Card aria-busy={loading || undefined}>
      <CardHeader>
        <CardTitle asChild className="text-xl">
          <h2>Your name</h2>
        </CardTitle>
        <CardDescription>How other people on Errandly see you.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} onFocus={() => void loadRules()} noValidate className="grid gap-4 sm:grid-cols-2">
          <FormField label="First name" required error={first.error}>
            <Input value={first.value} disabled={loading} maxLength={60} autoComplete="given-name" onChange={(e) => first.onChange(e.target.value)} />
          </FormField>
          <FormField label="Last name" required error={last.error}>
            <Input value={last.value} disabled={loading} maxLength={60} autoComplete="family-name" onChange={(e) => last.onChange(e.target.value)} />
          </FormField>
          <div className="sm:col-span-2">
            <Button type="submit" disabled={loading || saving}>
              {saving ? "Saving..." : "Save name"}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
