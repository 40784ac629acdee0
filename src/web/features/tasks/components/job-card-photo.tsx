import type { TaskPhotoThumb } from "@shared/task-photos";

/**
 * A job-board card's first photo (docs/product.md#task-photos): a fixed 16:9 box, so the card keeps
 * its height while the image loads (and, on a phone, a card with a photo stays about one screen
 * tall: 4:3 made the picture 270 of 844 px), and lazy, so a long board fetches only what is on screen.
 */
export function JobCardPhoto({ photo }: { photo: TaskPhotoThumb }) {
  return (
    <div className="aspect-video w-full overflow-hidden rounded-t-lg bg-muted">
      <img src={photo.small} alt={photo.alt} loading="lazy" decoding="async" width={320} height={180} className="size-full object-cover" data-testid="job-card-photo" />
    </div>
  );
}
