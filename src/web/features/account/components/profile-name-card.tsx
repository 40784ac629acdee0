import type { ComponentProps, FormEvent, Ref } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";

export type NameFieldName = "firstName" | "lastName";

type NameField = Omit<ComponentProps<"input">, "name"> & { error?: string | undefined };

/** The card of the name form, the same box loading, before its form loads, and loaded. */
export function NameCard({
  loading = false,
  formRef,
  onSubmit,
  onFirstUse,
  first = {},
  last = {},
  saving = false,
}: {
  loading?: boolean;
  formRef?: Ref<HTMLFormElement>;
  onSubmit?: (event: FormEvent) => void;
  /** Called at the first focus or pointer on the form, to load what it needs. */
  onFirstUse?: () => void;
  first?: NameField;
  last?: NameField;
  saving?: boolean;
}) {
  const { error: firstError, ...firstInput } = first;
  const { error: lastError, ...lastInput } = last;
  return (
    <Card aria-busy={loading || undefined}>
      <CardHeader>
        <CardTitle asChild className="text-xl">
          <h2>Your name</h2>
        </CardTitle>
        <CardDescription>How other people on Errandly see you.</CardDescription>
      </CardHeader>
      <CardContent>
        <form ref={formRef} onSubmit={onSubmit} onFocus={onFirstUse} onPointerEnter={onFirstUse} noValidate className="grid gap-4 sm:grid-cols-2">
          <FormField label="First name" required error={firstError}>
            <Input name="firstName" {...firstInput} disabled={loading} maxLength={60} autoComplete="given-name" />
          </FormField>
          <FormField label="Last name" required error={lastError}>
            <Input name="lastName" {...lastInput} disabled={loading} maxLength={60} autoComplete="family-name" />
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
