import { CloudOff } from "lucide-react";
import { cn } from "@/lib/cn";

/** Over a map whose tiles could not load: the markers still stand on a blank background. */
export function TilesUnavailable({ compact = false }: { compact?: boolean }) {
  return (
    <p
      role="status"
      className={cn(
        "absolute inset-x-3 z-[1000] mx-auto flex w-fit max-w-[calc(100%-1.5rem)] items-center gap-2 rounded-md border bg-background shadow-sm",
        compact ? "top-2 px-2 py-1 text-xs" : "bottom-8 px-3 py-1.5 text-sm",
      )}
    >
      <CloudOff className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      {compact ? "Map tiles are unavailable." : "Map tiles are unavailable. The positions are still shown."}
    </p>
  );
}
