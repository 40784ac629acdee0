import { MapPin, Star } from "lucide-react";
import { Link } from "wouter";
import { categoryLabel } from "@shared/constants";
import type { PublicProvider } from "@shared/providers";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { PersonAvatar } from "@/components/ui/person-avatar";
import { userProfilePath } from "@/lib/profile-path";

/** One card of the public directory (docs/product.md#verification): the name links to the provider's profile. */
export function ProviderCard({ provider }: { provider: PublicProvider }) {
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
        <Link href={userProfilePath(provider.userId)} className="text-sm font-medium text-primary hover:underline">
          View profile<span className="sr-only"> of {name}</span>
        </Link>
      </CardContent>
    </Card>
  );
}
