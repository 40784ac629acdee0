import { CheckCircle, Eye, Search, XCircle } from "lucide-react";
import { categoryLabel } from "@shared/constants";
import { initials } from "@shared/names";
import type { ProviderProfile } from "@shared/providers";
import { Avatar, AvatarFallback, AvatarImage } from "@/components/ui/avatar";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader } from "@/components/ui/card";
import { BackgroundCheckPanel } from "./background-check-panel";
import { StatusBadge } from "./status-badge";

export function fullName(profile: ProviderProfile): string {
  return `${profile.user.firstName} ${profile.user.lastName}`.trim() || profile.fullName;
}

export function initialsOf(profile: ProviderProfile): string {
  return initials(profile.user);
}

/** An application with its actions (up to 2 service types plus '+N'; docs/product.md#web-app). */
export function ApplicationCard({
  application,
  busy,
  onView,
  onReview,
  onReject,
  onApprove,
}: {
  application: ProviderProfile;
  busy: boolean;
  onView: () => void;
  onReview: () => void;
  onReject: () => void;
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
        <Button size="sm" variant="outline" onClick={onView}>
          <Eye aria-hidden="true" />
          View Details
        </Button>
        {application.verificationStatus === "pending" ? (
          <Button size="sm" variant="secondary" disabled={busy} onClick={onReview}>
            <Search aria-hidden="true" />
            Mark Under Review
          </Button>
        ) : null}
        <Button size="sm" variant="destructive" disabled={busy} onClick={onReject}>
          <XCircle aria-hidden="true" />
          Reject
        </Button>
        <Button size="sm" disabled={busy || !cleared} aria-describedby={cleared ? undefined : approveHint} onClick={onApprove}>
          <CheckCircle aria-hidden="true" />
          Approve
        </Button>
      </CardFooter>
    </Card>
  );
}
