import { MapPin, Star } from "lucide-react";
import { Link } from "wouter";
import { categoryLabel } from "@shared/constants";
import type { PublicProvider } from "@shared/providers";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { Skeleton, SkeletonText } from "@/components/ui/skeleton";
import { PersonAvatar } from "@/components/ui/person-avatar";
import { requestProviderPath, userProfilePath } from "@/lib/profile-path";
import { Button } from "@/components/ui/button";

/** One card of the public directory (docs/product.md#verification): the name links to the provider's profile. */
export function ProviderCard({ provider, canRequest = false }: { provider: PublicProvider; canRequest?: boolean }) {
  const name = provider.displayName;
  return (
    <Card className="h-full">
      <CardHeader className="flex flex-row items-center gap-4">
        <PersonAvatar name={name} photoUrl={provider.profilePhotoUrl} className="size-16" fallbackClassName="text-lg" />
        <div className="min-w-0">
          <h2 className="text-lg font-semibold [overflow-wrap:anywhere]">
            <Link href={userProfilePath(provider.userId)} className="hover:underline">
              {name}
            </Link>
          </h2>
          {provider.city && provider.state ? (
            <p className="flex items-center gap-1 text-sm text-muted-foreground">
              <MapPin className="size-4" aria-hidden="true" />
              {provider.city}, {provider.state}
              {/* Only when the directory was searched near a place (docs/product.md#verification). */}
              {provider.distanceMiles !== null && <span className="font-medium text-foreground"> · {provider.distanceMiles} mi</span>}
            </p>
          ) : null}
          <p className="text-sm text-muted-foreground">
            {provider.completedTasks} {provider.completedTasks === 1 ? "task" : "tasks"} completed
          </p>
          {provider.rating ? (
            <p className="flex items-center gap-1 text-sm">
              <Star className="size-4 fill-warning text-warning" aria-hidden="true" />
              <span>{Number(provider.rating).toFixed(1)}</span>
              <span className="text-muted-foreground">
                ({provider.reviewCount} {provider.reviewCount === 1 ? "review" : "reviews"})
              </span>
            </p>
          ) : null}
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        {provider.bio ? <p className="line-clamp-3 text-sm text-muted-foreground [overflow-wrap:anywhere]">{provider.bio}</p> : null}
        <div>
          <h3 className="mb-2 text-sm font-medium">Services</h3>
          <div className="flex flex-wrap gap-2">
            {provider.serviceTypes.map((type) => (
              <Badge key={type} variant="secondary">
                {categoryLabel(type)}
              </Badge>
            ))}
          </div>
        </div>
        {provider.hourlyRate !== null ? (
          <div className="flex items-baseline justify-between border-t pt-3">
            <span className="text-sm text-muted-foreground">Hourly Rate</span>
            <span className="font-semibold">${provider.hourlyRate.toFixed(2).replace(/\.00$/, "")}/hr</span>
          </div>
        ) : null}
        <div className="flex flex-wrap items-center justify-between gap-2">
          <Link href={userProfilePath(provider.userId)} className="text-sm font-medium text-primary hover:underline">
            View profile<span className="sr-only"> of {name}</span>
          </Link>
          {/* docs/product.md, Requesting a provider: signed-in people other than the provider. */}
          {canRequest ? (
            <Button asChild size="sm">
              <Link href={requestProviderPath(provider.userId)}>
                Request<span className="sr-only"> {name}</span>
              </Link>
            </Button>
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
}

/** A directory card while the list loads: the same boxes and line heights as ProviderCard. */
export function ProviderCardSkeleton() {
  return (
    <Card className="h-full">
      <CardHeader className="flex flex-row items-center gap-4">
        <Skeleton className="size-16 shrink-0 rounded-full" />
        <div className="grid min-w-0 flex-1">
          <p className="text-lg font-semibold">
            <SkeletonText className="w-32" />
          </p>
          <p className="text-sm">
            <SkeletonText className="w-28" />
          </p>
          <p className="text-sm">
            <SkeletonText className="w-24" />
          </p>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        <p className="text-sm">
          <SkeletonText className="w-full" />
          <br />
          <SkeletonText className="w-5/6" />
        </p>
        <div className="grid gap-2">
          <p className="text-sm">
            <SkeletonText className="w-16" />
          </p>
          <div className="flex gap-2">
            <Skeleton className="h-[22px] w-24 rounded-full" />
            <Skeleton className="h-[22px] w-20 rounded-full" />
          </div>
        </div>
        <p className="text-sm">
          <SkeletonText className="w-24" />
        </p>
      </CardContent>
    </Card>
  );
}
