import { useRef, useState, type FormEvent } from "react";
import type { Account } from "@shared/account";
import { toast } from "@/components/ui/use-toast";
import { useAccount } from "../api/get-account";
import { NameCard, type NameFieldName } from "./profile-name-card";
import type { NameForm, NameHandOver } from "./profile-name-fields";

/**
 * First and last name, checked with the server's own schema before it is sent. While the account
 * loads, the same card holds the same fields, disabled: a shorter placeholder moved the photo card
 * below it by 132 px at 390 px when the form arrived (CLS 0.07, issue 27).
 */
export function ProfileNameForm() {
  const account = useAccount();
  return account.data ? <NameUntilUsed account={account.data} /> : <NameCard loading />;
}

// The form (react-hook-form) loads when someone first reaches for the card, not with the settings
// page, which keeps its first load within budget (docs/decisions/041-forms-loaded-on-first-use.md,
// like the chat's composer). Until then the card, drawn the same, takes the typing; the form takes
// over with what was typed, the focus, and a save already pressed.
const loadForm = () => import("./profile-name-fields");

function NameUntilUsed({ account }: { account: Account }) {
  const [loaded, setLoaded] = useState<{ Form: typeof NameForm; start: NameHandOver } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const submitAsked = useRef(false);
  const loading = useRef(false);

  const load = () => {
    if (loading.current) return;
    loading.current = true;
    loadForm().then(
      ({ NameForm: Form }) => setLoaded({ Form, start: handOver(formRef.current, account, submitAsked.current) }),
      () => {
        // Offline or a new deploy: the next focus or save tries again, and the names stay in the card.
        loading.current = false;
        if (!submitAsked.current) return;
        submitAsked.current = false;
        toast({ title: "Could not save your name", description: "The form could not load. Check your connection and press Save name again.", variant: "destructive" });
      },
    );
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submitAsked.current = true;
    load();
  };

  if (loaded) return <loaded.Form start={loaded.start} />;
  return (
    <NameCard
      formRef={formRef}
      onFirstUse={load}
      onSubmit={onSubmit}
      first={{ defaultValue: account.firstName }}
      last={{ defaultValue: account.lastName }}
    />
  );
}

/** What the card holds now, read from its inputs. */
function handOver(form: HTMLFormElement | null, account: Account, submit: boolean): NameHandOver {
  const value = (name: NameFieldName) => {
    const input = form?.elements.namedItem(name);
    return input instanceof HTMLInputElement ? input.value : account[name];
  };
  const focused = document.activeElement instanceof HTMLInputElement && form?.contains(document.activeElement) ? document.activeElement.name : null;
  return {
    values: { firstName: value("firstName"), lastName: value("lastName") },
    focus: focused === "firstName" || focused === "lastName" ? focused : null,
    submit,
  };
}
