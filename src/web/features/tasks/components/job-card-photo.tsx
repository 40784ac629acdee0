import type { TaskPhotoThumb } from "@shared/task-photos";

/**
 * A job-board card's first photo (docs/product.md#task-photos): a fixed 4:3 box, so the card keeps
 * its height while the image loads, and lazy, so a long board fetches only what is on screen.
 */
export function JobCardPhoto({ photo }: { photo: TaskPhotoThumb }) {
  return (
    <div className="aspect-[4/3] w-full overflow-hidden rounded-t-lg bg-muted">
      <img src={photo.small} alt={photo.alt} loading="lazy" decoding="async" width={320} height={240} className="size-full object-cover" data-testid="job-card-photo" />
    </div>
  );
}
