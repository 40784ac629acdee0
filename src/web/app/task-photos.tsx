import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useId, useState } from "react";
import type { TaskPhoto } from "@shared/task-photos";
import type { TaskDetail } from "@shared/tasks";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { openTasksBaseKey } from "@/features/tasks/api/get-open-tasks";
import { taskQueryKey } from "@/features/tasks/api/get-task";

// Task photos where the task feature's pages show them (docs/product.md#task-photos). The gallery,
// the manager and the wizard's photo step load on demand, so no page's first load carries them
// (e2e/budgets.e2e.ts). On the task page the manager (a form: react-hook-form and zod) opens from
// its button, so the poster's first load carries neither (docs/decisions/041-forms-loaded-on-first-use.md).

const TaskPhotoGallery = lazy(() => import("@/features/task-photos/components/task-photo-gallery").then((m) => ({ default: m.TaskPhotoGallery })));
const loadManager = () => import("@/features/task-photos/components/task-photo-manager");
const TaskPhotoManager = lazy(() => loadManager().then((m) => ({ default: m.TaskPhotoManager })));
const TaskPhotosStep = lazy(() => import("@/features/task-photos/components/task-photos-step").then((m) => ({ default: m.TaskPhotosStep })));

/** The task and the job board show the photos as the server now has them. */
function usePhotosChanged(taskId: string) {
  const queryClient = useQueryClient();
  return (photos: TaskPhoto[]) => {
    queryClient.setQueryData<TaskDetail>(taskQueryKey(taskId), (task) => (task ? { ...task, photos } : task));
    void queryClient.invalidateQueries({ queryKey: openTasksBaseKey });
  };
}

/** The task page's Photos section: the gallery for everyone, the manager for the poster of an open task. */
export function TaskPhotosSection({ task, canEdit }: { task: TaskDetail; canEdit: boolean }) {
  const onChanged = usePhotosChanged(task.id);
  if (task.photos.length === 0 && !canEdit) return null;
  return (
    <section className="grid gap-2" aria-labelledby="task-photos-heading">
      <h2 id="task-photos-heading" className="text-lg font-semibold">
        Photos
      </h2>
      {/* The gallery's own 4:3 box, reserved while its code loads: nothing below moves. */}
      <Suspense fallback={task.photos.length > 0 ? <div className="aspect-[4/3] w-full rounded-lg bg-muted" /> : <Spinner label="Loading photos..." />}>
        {task.photos.length > 0 && <TaskPhotoGallery photos={task.photos} />}
      </Suspense>
      {canEdit && <PhotoManagerDisclosure task={task} onChanged={onChanged} />}
    </section>
  );
}

/** The poster's "Add photos" button and, once pressed, the manager below it (fetched when the pointer or focus reaches the button). */
function PhotoManagerDisclosure({ task, onChanged }: { task: TaskDetail; onChanged: (photos: TaskPhoto[]) => void }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const prefetch = () => void loadManager();
  return (
    <>
      <div>
        <Button type="button" variant="outline" aria-expanded={open} aria-controls={panelId} onPointerEnter={prefetch} onFocus={prefetch} onClick={() => setOpen(!open)}>
          {open ? "Done with photos" : task.photos.length > 0 ? "Add or remove photos" : "Add photos"}
        </Button>
      </div>
      <div id={panelId} hidden={!open}>
        {open && (
          <Suspense fallback={<Spinner label="Loading..." />}>
            <TaskPhotoManager taskId={task.id} photos={task.photos} onChanged={onChanged} />
          </Suspense>
        )}
      </div>
    </>
  );
}

/** The Post a Task wizard's last step (src/web/app/post-task-dialog.tsx). */
export function PostedTaskPhotosStep({ taskId, onDone }: { taskId: string; onDone: () => void }) {
  const onChanged = usePhotosChanged(taskId);
  return (
    <Suspense fallback={<Spinner label="Loading..." />}>
      <TaskPhotosStep taskId={taskId} onChanged={onChanged} onDone={onDone} />
    </Suspense>
  );
}
