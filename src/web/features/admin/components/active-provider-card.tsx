import { categoryLabel } from "@shared/constants";
import type { ActiveProvider } from "@shared/providers";
import { Avatar, AvatarFallback, AvatarImage } from "@/components/ui/avatar";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { DeferredDialog, deferredPart } from "@/components/ui/deferred-dialog";
import { BackgroundCheckPanel } from "./background-check-panel";
import { fullName, initialsOf } from "./provider-names";

// The dialog and its reason form are a chunk fetched when the pointer or focus reaches the button
// (docs/decisions/041-forms-loaded-on-first-use.md).
const revokeDialog = deferredPart(() => import("./revoke-approval-dialog"), (m) => m.RevokeApprovalDialog);

const TASK_STATUS: Record<string, string> = { claimed: "Claimed", in_progress: "In Progress" };

/** An approved provider and what they are working on now; an admin may revoke the approval (docs/product.md, Moderation). */
export function ActiveProviderCard({
  provider,
  revoking,
  onRevoke,
}: {
  provider: ActiveProvider;
  /** A revocation is on its way to the server. */
  revoking: boolean;
  /** Revokes with the admin's reason; `done` closes the dialog once the server agreed. */
  onRevoke: (reason: string, done: () => void) => void;
}) {
  const name = fullName(provider);
  const task = provider.currentTask;
  return (
    <Card>
      <CardHeader className="flex flex-row items-center gap-3">
        <Avatar className="size-12">
          {provider.profilePhotoUrl ? <AvatarImage src={provider.profilePhotoUrl} alt={name} /> : null}
          <AvatarFallback>{initialsOf(provider)}</AvatarFallback>
        </Avatar>
        <div className="min-w-0">
          <h3 className="truncate font-semibold">{name}</h3>
          <p className="truncate text-sm text-muted-foreground">{provider.user.email}</p>
        </div>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {task ? (
          <div className="grid gap-1 rounded-md border p-3">
            <div className="flex items-center justify-between gap-2">
              <p className="font-medium">{task.title}</p>
              <Badge variant="info">{TASK_STATUS[task.status] ?? task.status}</Badge>
            </div>
            <p className="line-clamp-2 text-muted-foreground">{task.description}</p>
            <p>
              ${task.budget.toFixed(2)} · {categoryLabel(task.category)}
            </p>
          </div>
        ) : (
          <p className="text-muted-foreground">No active tasks - Available for new jobs</p>
        )}
        <BackgroundCheckPanel userId={provider.userId} name={name} check={provider.backgroundCheck} />
        <div>
          <DeferredDialog
            part={revokeDialog}
            trigger={
              <Button type="button" variant="outline" size="sm">
                Revoke approval
              </Button>
            }
          >
            {(overlay) => <revokeDialog.Component name={name} overlay={overlay} pending={revoking} onConfirm={onRevoke} />}
          </DeferredDialog>
        </div>
      </CardContent>
    </Card>
  );
}
