import { CloudOff } from "lucide-react";

/** Over a map whose tiles could not load: the markers still stand on a blank background. */
export function TilesUnavailable() {
  return (
    <p
      role="status"
      className="absolute inset-x-3 bottom-8 z-[1000] mx-auto flex w-fit max-w-[calc(100%-1.5rem)] items-center gap-2 rounded-md border bg-background px-3 py-1.5 text-sm shadow-sm"
    >
      <CloudOff className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      Map tiles are unavailable. The positions are still shown.
    </p>
  );
}
