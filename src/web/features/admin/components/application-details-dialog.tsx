import { categoryLabel } from "@shared/constants";
import type { ProviderProfile } from "@shared/providers";
import { Avatar, AvatarFallback, AvatarImage } from "@/components/ui/avatar";
import { Badge } from "@/components/ui/badge";
import type { DeferredOverlay } from "@/components/ui/use-deferred-overlay";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { fullName, initialsOf } from "./provider-names";
import { StatusBadge } from "./status-badge";

/** The details dialog of the admin dashboard (docs/product.md#verification). */
export function ApplicationDetailsDialog({ application, overlay }: { application: ProviderProfile; overlay: DeferredOverlay }) {
  return (
    <Dialog open={overlay.open} onOpenChange={overlay.setOpen}>
      <DialogContent className="max-w-lg" onCloseAutoFocus={overlay.returnFocus}>
        <DialogHeader>
          <DialogTitle>Application Details</DialogTitle>
          <DialogDescription>Review the applicant&apos;s information and documents.</DialogDescription>
        </DialogHeader>
        <div className="flex items-center gap-4">
          <Avatar className="size-16">
            {application.profilePhotoUrl ? <AvatarImage src={application.profilePhotoUrl} alt={fullName(application)} /> : null}
            <AvatarFallback>{initialsOf(application)}</AvatarFallback>
          </Avatar>
          <div>
            <p className="text-lg font-semibold">{fullName(application)}</p>
            <StatusBadge status={application.verificationStatus} />
          </div>
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-muted-foreground">Email</dt>
          <dd>{application.user.email}</dd>
          <dt className="text-muted-foreground">Phone</dt>
          <dd>{application.phone}</dd>
          <dt className="text-muted-foreground">Address</dt>
          <dd>{application.address}</dd>
          <dt className="text-muted-foreground">City</dt>
          <dd>
            {application.city}, {application.state}
          </dd>
          <dt className="text-muted-foreground">ZIP</dt>
          <dd>{application.zipCode}</dd>
          <dt className="text-muted-foreground">Services</dt>
          <dd className="flex flex-wrap gap-1">
            {application.serviceTypes.map((type) => (
              <Badge key={type} variant="secondary">
                {categoryLabel(type)}
              </Badge>
            ))}
          </dd>
          <dt className="text-muted-foreground">Bio</dt>
          <dd className="whitespace-pre-line">{application.bio}</dd>
        </dl>
        <div className="flex flex-wrap gap-4 text-sm">
          {application.idDocumentUrl ? (
            <a href={application.idDocumentUrl} className="font-medium text-primary underline underline-offset-4">
              View ID Document
            </a>
          ) : (
            <span className="text-muted-foreground">ID document deleted (kept 90 days after a rejection)</span>
          )}
          {application.profilePhotoUrl ? (
            <a
              href={application.profilePhotoUrl}
              target="_blank"
              rel="noreferrer"
              className="font-medium text-primary underline underline-offset-4"
            >
              View Profile Photo
            </a>
          ) : null}
        </div>
      </DialogContent>
    </Dialog>
  );
}
