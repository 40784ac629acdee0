import { ChevronLeft, ChevronRight, Maximize2 } from "lucide-react";
import { useRef, useState, type KeyboardEvent } from "react";
import type { TaskPhoto } from "@shared/task-photos";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";

/**
 * The task page's photos (docs/product.md#task-photos): the chosen photo in a fixed 4:3 box, a row
 * of thumbnails, and a larger view. Left and right arrow keys (Home and End too) move between
 * photos wherever focus is in the gallery or the larger view.
 */
export function TaskPhotoGallery({ photos }: { photos: TaskPhoto[] }) {
  const [chosen, setChosen] = useState(0);
  const [large, setLarge] = useState(false);
  const thumbs = useRef<(HTMLButtonElement | null)[]>([]);
  const count = photos.length;
  const index = Math.min(chosen, count - 1);
  const current = photos[index];
  if (!current) return null;

  const show = (next: number, focusThumb: boolean) => {
    const wrapped = (next + count) % count;
    setChosen(wrapped);
    if (focusThumb) thumbs.current[wrapped]?.focus();
  };
  const move = (event: KeyboardEvent, focusThumb: boolean) => {
    const target = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: count - 1 }[event.key];
    if (target === undefined || count < 2) return;
    event.preventDefault();
    // The larger view is portaled, but React still bubbles its keys to the gallery: move once.
    event.stopPropagation();
    show(target, focusThumb);
  };
  const position = `Photo ${index + 1} of ${count}`;

  return (
    <div className="grid gap-3" data-testid="task-photo-gallery" onKeyDown={(event) => move(event, event.target instanceof HTMLElement && event.target.dataset.thumb === "true")}>
      <button
        type="button"
        onClick={() => setLarge(true)}
        className="group relative aspect-[4/3] w-full overflow-hidden rounded-lg bg-muted outline-none focus-visible:ring-[3px] focus-visible:ring-ring"
      >
        <img src={current.medium} alt={current.alt} width={1280} height={960} className="size-full object-contain" />
        <span className="absolute right-2 bottom-2 inline-flex items-center gap-1 rounded-md bg-background/90 px-2 py-1 text-xs font-medium text-foreground shadow-sm">
          <Maximize2 className="size-3.5" aria-hidden="true" />
          View larger
        </span>
      </button>
      {count > 1 && (
        <div role="group" aria-label="Task photos: use the left and right arrow keys to move between them" className="flex gap-2 overflow-x-auto p-1">
          {photos.map((photo, i) => (
            <button
              key={photo.id}
              ref={(el) => {
                thumbs.current[i] = el;
              }}
              type="button"
              data-thumb="true"
              aria-current={i === index ? "true" : undefined}
              tabIndex={i === index ? 0 : -1}
              onClick={() => show(i, false)}
              className="aspect-[4/3] w-20 shrink-0 overflow-hidden rounded-md border-2 border-transparent outline-none aria-[current=true]:border-primary focus-visible:ring-[3px] focus-visible:ring-ring"
            >
              <img src={photo.small} alt={`Show photo ${i + 1} of ${count}: ${photo.alt}`} loading="lazy" width={320} height={240} className="size-full object-cover" />
            </button>
          ))}
        </div>
      )}
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {position}
      </p>
      <Dialog open={large} onOpenChange={setLarge}>
        <DialogContent className="sm:max-w-5xl" onKeyDown={(event) => move(event, false)}>
          <DialogHeader>
            <DialogTitle className="[overflow-wrap:anywhere]">{current.alt}</DialogTitle>
            <DialogDescription>
              {position}
              {count > 1 ? ". The left and right arrow keys move between photos." : ""}
            </DialogDescription>
          </DialogHeader>
          {/* As large as the window allows, so Previous and Next stay on screen under it. */}
          <div className="flex justify-center overflow-hidden rounded-md bg-muted">
            <img src={current.medium} alt={current.alt} className="max-h-[60vh] w-auto max-w-full object-contain" />
          </div>
          {count > 1 && (
            <div className="flex justify-between gap-2">
              <Button type="button" variant="outline" onClick={() => show(index - 1, false)}>
                <ChevronLeft className="size-4" aria-hidden="true" />
                Previous
              </Button>
              <Button type="button" variant="outline" onClick={() => show(index + 1, false)}>
                Next
                <ChevronRight className="size-4" aria-hidden="true" />
              </Button>
            </div>
          )}
        </DialogContent>
      </Dialog>
    </div>
  );
}
