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

/** The wizard prefilled once its fields are known, open at once (docs/product.md, Requesting a provider). */
function Prefilled({ prefill, onPosted }: { prefill: Partial<PostTaskForm>; onPosted: () => void }) {
  const [open, setOpen] = useState(true);
  return <PostTaskDialogWithFelix open={open} onOpenChange={setOpen} prefill={prefill} onPosted={onPosted} />;
}

/** "?request=<provider>": "Request" on a profile or directory card. */
function RequestPosting({ providerId, onPosted }: { providerId: string; onPosted: () => void }) {
  const profile = useUserProfile(providerId);
  if (!profile.data) return null;
  return <Prefilled prefill={{ request: requestChoiceFor(profile.data.id, profile.data.displayName) }} onPosted={onPosted} />;
}

/** "?again=<task>": "Book again" on a completed task the poster posted. */
function BookAgainPosting({ taskId, onPosted }: { taskId: string; onPosted: () => void }) {
  const { viewer } = useTaskViewer();
  const task = useTask(taskId, viewer);
  if (task.data?.visibility !== "private") return null;
  return <Prefilled prefill={bookAgainForm(task.data)} onPosted={onPosted} />;
}

/** Whichever of the two the dashboard's address asks for; `onPosted` once the task is posted. */
export default function PrefilledPosting({ requestId, againId, onPosted }: { requestId: string | null; againId: string | null; onPosted: () => void }) {
  if (requestId) return <RequestPosting providerId={requestId} onPosted={onPosted} />;
  return againId ? <BookAgainPosting taskId={againId} onPosted={onPosted} /> : null;
}
