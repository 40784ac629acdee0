import { useState } from "react";
import type { TaskPhoto } from "@shared/task-photos";
import { Button } from "@/components/ui/button";
import { TaskPhotoManager } from "./task-photo-manager";

/**
 * The Post a Task wizard's photo step, right after posting (docs/product.md#task-photos): the task
 * exists now, so each photo is added to it with the same calls as on the task page.
 */
export function TaskPhotosStep({ taskId, onChanged, onDone }: { taskId: string; onChanged: (photos: TaskPhoto[]) => void; onDone: () => void }) {
  const [photos, setPhotos] = useState<TaskPhoto[]>([]);
  return (
    <div className="grid gap-4">
      <TaskPhotoManager
        taskId={taskId}
        photos={photos}
        onChanged={(next) => {
          setPhotos(next);
          onChanged(next);
        }}
      />
      <div className="flex justify-end">
        <Button type="button" onClick={onDone}>
          {photos.length > 0 ? "Done" : "Skip photos"}
        </Button>
      </div>
    </div>
  );
}
