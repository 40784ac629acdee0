import type * as React from "react";

import { cn } from "@/lib/cn";

/**
 * A decorative loading placeholder, hidden from assistive technology; announce loading with a
 * Spinner or `aria-busy` on the region instead.
 */
export function Skeleton({ className, ...props }: React.ComponentProps<"div">) {
  return <div aria-hidden="true" className={cn("animate-pulse rounded-md bg-muted", className)} {...props} />;
}
