import type * as React from "react";

import { cn } from "@/lib/cn";

/**
 * A decorative loading placeholder, hidden from assistive technology; announce loading with a
 * Spinner or a LoadingRegion instead.
 */
export function Skeleton({ className, ...props }: React.ComponentProps<"div">) {
  return <div aria-hidden="true" className={cn("animate-pulse rounded-md bg-muted", className)} {...props} />;
}

/**
 * A bar standing for one line of text. Inside an element with the text's own classes (`text-2xl`,
 * `leading-snug`) the line keeps the text's height, so the content that replaces it does not move
 * what follows.
 */
export function SkeletonText({ className }: { className?: string }) {
  return <span aria-hidden="true" className={cn("inline-block h-[0.8em] animate-pulse rounded-sm bg-muted align-middle", className)} />;
}

/**
 * Placeholders shaped like the content that is loading (docs/product.md#web-app): the region says
 * it is busy, its shapes are hidden from assistive technology, and a status, read out but not
 * shown, says what is loading.
 */
export function LoadingRegion({ label, className, children }: { label: string; className?: string; children: React.ReactNode }) {
  return (
    <>
      <p role="status" className="sr-only">
        {label}
      </p>
      <div aria-busy="true" className={className}>
        {children}
      </div>
    </>
  );
}
