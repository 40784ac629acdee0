import { useEffect } from "react";
import type { ProfileBody } from "@shared/account";
import { toast } from "@/components/ui/use-toast";
import { lazyResolver } from "@/lib/lazy-resolver";
import { useSchemaForm } from "@/lib/schema-form";
import { useUpdateProfile } from "../api/update-profile";
import { NameCard, type NameFieldName } from "./profile-name-card";

// The name form proper (react-hook-form, src/web/lib/schema-form.ts): its own chunk, loaded at the
// card's first use (profile-name-form.tsx). The rules are the server's zod schema, loaded at the
// first validation (decision 041).
const resolver = lazyResolver(() => import("./profile-name-resolver").then((m) => m.profileNameResolver));

/** What the card held when this form took it over: the typed names, the focused field, a save already asked for. */
export interface NameHandOver {
  values: ProfileBody;
  focus: NameFieldName | null;
  submit: boolean;
}

export function NameForm({ start }: { start: NameHandOver }) {
  const update = useUpdateProfile();
  const form = useSchemaForm<ProfileBody>({ resolver, defaultValues: start.values });
  const { errors } = form.formState;

  const submit = form.handleSubmit((body) =>
    update.mutate(body, {
      onSuccess: () => toast({ title: "Name saved", description: "Your new name is shown across Errandly." }),
      onError: (error) => {
        // A refusal naming a field goes under it; the rest is told in a toast.
        const rest = form.showServerErrors(error, "Please try again.");
        if (rest) toast({ title: "Could not save your name", description: rest, variant: "destructive" });
      },
    }),
  );

  // Once, as it replaces the card: the focus stays where it was, and a save pressed before is done.
  useEffect(() => {
    if (start.focus) form.setFocus(start.focus);
    if (start.submit) void submit();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the hand-over happens at mount only
  }, []);

  return (
    <NameCard
      onSubmit={(event) => void submit(event)}
      first={{ ...form.register("firstName"), error: errors.firstName?.message }}
      last={{ ...form.register("lastName"), error: errors.lastName?.message }}
      saving={update.isPending}
    />
  );
}
