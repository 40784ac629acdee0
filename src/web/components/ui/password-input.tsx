import { Eye, EyeOff } from "lucide-react";
import * as React from "react";

import { Input } from "@/components/ui/input";
import { cn } from "@/lib/cn";

/**
 * A password field with a show/hide toggle (docs/product.md "Passwords"). Every prop, the ref
 * included (React 19 passes it as a prop, so react-hook-form's `register` works), goes to the
 * <input>, so FormField's id and aria wiring land on the field itself.
 *
 * The toggle keeps one name, "Show password", and says its state with aria-pressed: a toggle
 * button whose name also flipped would be announced as "Hide password, pressed", two states
 * fighting (WAI-ARIA Authoring Practices, button pattern). A pointer press does not take the focus
 * out of the field, so typing goes on; from the keyboard the focus stays on the toggle.
 */
export function PasswordInput({ className, ...props }: Omit<React.ComponentProps<"input">, "type">) {
  const [visible, setVisible] = React.useState(false);
  return (
    <div className="relative">
      <Input
        {...props}
        type={visible ? "text" : "password"}
        // Shown text must not go to spelling services or get capitalized.
        spellCheck={false}
        autoCapitalize="none"
        autoCorrect="off"
        className={cn("pr-11", className)}
      />
      <button
        type="button"
        aria-label="Show password"
        aria-pressed={visible}
        aria-controls={props.id}
        title={visible ? "Hide password" : "Show password"}
        onMouseDown={(event) => event.preventDefault()}
        onClick={() => setVisible((v) => !v)}
        disabled={props.disabled}
        className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-md text-muted-foreground hover:text-foreground focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-50"
      >
        {visible ? <EyeOff aria-hidden="true" className="size-4" /> : <Eye aria-hidden="true" className="size-4" />}
      </button>
    </div>
  );
}
