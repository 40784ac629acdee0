import { CheckCircle, Eye, Search, XCircle } from "lucide-react";
import { categoryLabel } from "@shared/constants";
import type { ProviderProfile } from "@shared/providers";
import { Avatar, AvatarFallback, AvatarImage } from "@/components/ui/avatar";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader } from "@/components/ui/card";
import { DeferredDialog, deferredPart } from "@/components/ui/deferred-dialog";
import { BackgroundCheckPanel } from "./background-check-panel";
import { fullName, initialsOf } from "./provider-names";
import { StatusBadge } from "./status-badge";

// The two dialogs (Radix Dialog; the rejection's form with react-hook-form and zod) are their own
// chunks, fetched when the pointer or focus reaches View Details or Reject: the admin opens the
// page to read the lists (issue 17, docs/decisions/041-forms-loaded-on-first-use.md).
const detailsDialog = deferredPart(() => import("./application-details-dialog"), (m) => m.ApplicationDetailsDialog);
const rejectDialog = deferredPart(() => import("./reject-dialog"), (m) => m.RejectDialog);

/** An application with its actions (up to 2 service types plus '+N'; docs/product.md#web-app). */
export function ApplicationCard({
  application,
  busy,
  onReview,
  onReject,
  onApprove,
}: {
  application: ProviderProfile;
  busy: boolean;
  onReview: () => void;
  /** Rejects with the admin's reason; `done` closes the dialog once the server agreed. */
  onReject: (reason: string, done: () => void) => void;
  onApprove: () => void;
}) {
  const name = fullName(application);
  const extra = application.serviceTypes.length - 2;
  // Approval needs a clear background check (docs/product.md, Background checks).
  const cleared = application.backgroundCheck?.state === "clear";
  const approveHint = `approve-hint-${application.id}`;
  return (
    <Card role="article" aria-label={`Application from ${name}`}>
      <CardHeader className="flex flex-row items-center gap-3">
        <Avatar className="size-12">
          {application.profilePhotoUrl ? <AvatarImage src={application.profilePhotoUrl} alt={name} /> : null}
          <AvatarFallback>{initialsOf(application)}</AvatarFallback>
        </Avatar>
        <div className="min-w-0 flex-1">
          <h3 className="truncate font-semibold">{name}</h3>
          <p className="truncate text-sm text-muted-foreground">{application.user.email}</p>
        </div>
        <StatusBadge status={application.verificationStatus} />
      </CardHeader>
      <CardContent className="grid gap-2 text-sm">
        <p className="text-muted-foreground">
          {application.city}, {application.state}
        </p>
        <div className="flex flex-wrap gap-1">
          {application.serviceTypes.slice(0, 2).map((type) => (
            <Badge key={type} variant="secondary">
              {categoryLabel(type)}
            </Badge>
          ))}
          {extra > 0 ? <Badge variant="outline">+{extra}</Badge> : null}
        </div>
        <BackgroundCheckPanel userId={application.userId} name={name} check={application.backgroundCheck} />
        {cleared ? null : (
          <p id={approveHint} className="text-muted-foreground">
            Approval needs a clear background check.
          </p>
        )}
      </CardContent>
      <CardFooter className="flex flex-wrap gap-2">
        <DeferredDialog
          part={detailsDialog}
          trigger={
            <Button size="sm" variant="outline">
              <Eye aria-hidden="true" />
              View Details
            </Button>
          }
        >
          {(overlay) => <detailsDialog.Component application={application} overlay={overlay} />}
        </DeferredDialog>
        {application.verificationStatus === "pending" ? (
          <Button size="sm" variant="secondary" disabled={busy} onClick={onReview}>
            <Search aria-hidden="true" />
            Mark Under Review
          </Button>
        ) : null}
        <DeferredDialog
          part={rejectDialog}
          trigger={
            <Button size="sm" variant="destructive" disabled={busy}>
              <XCircle aria-hidden="true" />
              Reject
            </Button>
          }
        >
          {(overlay) => <rejectDialog.Component name={name} overlay={overlay} pending={busy} onConfirm={onReject} />}
        </DeferredDialog>
        <Button size="sm" disabled={busy || !cleared} aria-describedby={cleared ? undefined : approveHint} onClick={onApprove}>
          <CheckCircle aria-hidden="true" />
          Approve
        </Button>
      </CardFooter>
    </Card>
  );
}
