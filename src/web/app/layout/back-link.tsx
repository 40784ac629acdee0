import { ArrowLeft } from "lucide-react";
import type { MouseEvent } from "react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { canGoBackInApp } from "@/lib/in-app-history";

/**
 * "Back": where the user came from when that was a page of the app (with its scroll position),
 * otherwise `fallback` (docs/product.md#web-app).
 */
export function BackLink({ fallback, label = "Back" }: { fallback: string; label?: string }) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!canGoBackInApp() || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    window.history.back();
  };
  return (
    <Button asChild variant="ghost" size="sm" className="mb-4">
      <Link href={fallback} onClick={onClick}>
        <ArrowLeft aria-hidden="true" /> {label}
      </Link>
    </Button>
  );
}
