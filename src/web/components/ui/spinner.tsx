import { LoaderCircle } from "lucide-react";
import type * as React from "react";

import { cn } from "@/lib/cn";

export type SpinnerProps = Omit<React.ComponentProps<"div">, "children"> & {
  /** Announced to screen readers; the icon itself is decorative. */
  label?: string;
  /** Icon classes, e.g. "size-8" for a page-level spinner. */
  iconClassName?: string;
};

export function Spinner({ label = "Loading...", className, iconClassName, ...props }: SpinnerProps) {
  return (
    <div role="status" className={cn("inline-flex items-center justify-center text-primary", className)} {...props}>
      <LoaderCircle className={cn("size-6 animate-spin", iconClassName)} aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </div>
  );
}
