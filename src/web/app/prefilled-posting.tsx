import { useState } from "react";
import { useUserProfile } from "@/features/profiles/api/get-user-profile";
import { useTask } from "@/features/tasks/api/get-task";
import type { PostTaskForm } from "@/features/tasks/components/post-task-form";
import { bookAgainForm, requestChoiceFor } from "@/features/tasks/components/post-task-prefill";
import { useTaskViewer } from "@/features/tasks/hooks/use-task-viewer";
import { PostTaskDialogWithFelix } from "./post-task-dialog";

// The dashboard's Post a Task wizard opened prefilled by "Request" (?request=<provider>) or "Book
// again" (?again=<task>), docs/product.md, Requesting a provider. Here, where the profiles and tasks
// features meet, and loaded only when the dashboard is opened that way (its first-load budget).

/**
 * The wizard prefilled once its fields are known, open at once (docs/product.md, Requesting a
 * provider). Closing it is "not now": `onClosed` lets the page drop the address that opened it, so a
 * reload does not open it again.
 */
function Prefilled({ prefill, onPosted, onClosed }: { prefill: Partial<PostTaskForm>; onPosted: () => void; onClosed: () => void }) {
  const [open, setOpen] = useState(true);
  const openChange = (next: boolean) => {
    setOpen(next);
    if (!next) onClosed();
  };
  return <PostTaskDialogWithFelix open={open} onOpenChange={openChange} prefill={prefill} onPosted={onPosted} />;
}

/** "?request=<provider>": "Request" on a profile or directory card. */
function RequestPosting({ providerId, onPosted, onClosed }: { providerId: string; onPosted: () => void; onClosed: () => void }) {
  const profile = useUserProfile(providerId);
  if (!profile.data) return null;
  return <Prefilled prefill={{ request: requestChoiceFor(profile.data.id, profile.data.displayName) }} onPosted={onPosted} onClosed={onClosed} />;
}

/** "?again=<task>": "Book again" on a completed task the poster posted. */
function BookAgainPosting({ taskId, onPosted, onClosed }: { taskId: string; onPosted: () => void; onClosed: () => void }) {
  const { viewer } = useTaskViewer();
  const task = useTask(taskId, viewer);
  if (task.data?.visibility !== "private") return null;
  return <Prefilled prefill={bookAgainForm(task.data)} onPosted={onPosted} onClosed={onClosed} />;
}

/** Whichever of the two the dashboard's address asks for; `onPosted` once the task is posted, `onClosed` once the wizard is closed. */
export default function PrefilledPosting({
  requestId,
  againId,
  onPosted,
  onClosed,
}: {
  requestId: string | null;
  againId: string | null;
  onPosted: () => void;
  onClosed: () => void;
}) {
  if (requestId) return <RequestPosting providerId={requestId} onPosted={onPosted} onClosed={onClosed} />;
  return againId ? <BookAgainPosting taskId={againId} onPosted={onPosted} onClosed={onClosed} /> : null;
}
