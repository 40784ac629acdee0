import { formatDate } from "@/lib/dates";
import { BadgeCheck, CalendarDays, MapPin, ShieldCheck, Star, Undo2 } from "lucide-react";
import { backgroundCheckedLine } from "@shared/background-check-words";
import { categoryLabel } from "@shared/constants";
import { reliabilityLine, type UserProfile } from "@shared/profiles";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { PersonAvatar } from "@/components/ui/person-avatar";
import { Skeleton, SkeletonText } from "@/components/ui/skeleton";

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid gap-0.5 rounded-md border p-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-xl font-semibold">{value}</dd>
    </div>
  );
}

/** Who a person is, as anyone may see them: photo, display name, badge, place, services, bio and record. */
export function ProfileSummary({ profile }: { profile: UserProfile }) {
  const place = profile.city && profile.state ? `${profile.city}, ${profile.state}` : (profile.city ?? profile.state);
  const { average, count } = profile.rating;
  const reliability = reliabilityLine(profile.claims);
  return (
    <Card>
      <CardHeader className="flex flex-col items-start gap-4 sm:flex-row sm:items-center">
        <PersonAvatar
          name={profile.displayName}
          photoUrl={profile.photoUrl}
          alt={`Photo of ${profile.displayName}`}
          className="size-24"
          fallbackClassName="text-2xl"
        />
        <div className="grid min-w-0 gap-1.5">
          <h1 className="text-3xl font-bold tracking-tight [overflow-wrap:anywhere]">{profile.displayName}</h1>
          {profile.verifiedProvider ? (
            <Badge variant="success" className="w-fit">
              <BadgeCheck aria-hidden="true" /> Verified Provider
            </Badge>
          ) : null}
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
            {place ? (
              <li className="flex items-center gap-1 [overflow-wrap:anywhere]">
                <MapPin className="size-4 shrink-0" aria-hidden="true" /> {place}
              </li>
            ) : null}
            <li className="flex items-center gap-1">
              <CalendarDays className="size-4 shrink-0" aria-hidden="true" /> Member since {formatDate(new Date(profile.memberSince), "MMMM yyyy")}
            </li>
            <li className="flex items-center gap-1">
              <Star className="size-4 shrink-0 fill-warning text-warning" aria-hidden="true" />
              {average === null || count === 0 ? "No ratings yet" : `${average.toFixed(1)} (${count} ${count === 1 ? "review" : "reviews"})`}
            </li>
            {profile.backgroundCheckedAt ? (
              <li className="flex items-center gap-1">
                <ShieldCheck className="size-4 shrink-0" aria-hidden="true" /> {backgroundCheckedLine(profile.backgroundCheckedAt)}
              </li>
            ) : null}
            {reliability ? (
              <li className="flex items-center gap-1">
                <Undo2 className="size-4 shrink-0" aria-hidden="true" /> {reliability}
              </li>
            ) : null}
          </ul>
        </div>
      </CardHeader>
      <CardContent className="grid gap-6">
        <dl className="grid grid-cols-2 gap-3 sm:max-w-md">
          <Stat label="Tasks completed as provider" value={String(profile.completedAsProvider)} />
          <Stat label="Tasks completed as customer" value={String(profile.completedAsPoster)} />
        </dl>
        {profile.provider ? (
          <>
            <section className="grid gap-2">
              <h2 className="text-lg font-semibold">Services</h2>
              {profile.provider.serviceTypes.length === 0 ? (
                <p className="text-sm text-muted-foreground">No services listed yet.</p>
              ) : (
                <ul className="flex flex-wrap gap-2">
                  {profile.provider.serviceTypes.map((type) => (
                    <li key={type}>
                      <Badge variant="secondary">{categoryLabel(type)}</Badge>
                    </li>
                  ))}
                </ul>
              )}
            </section>
            {profile.provider.bio ? (
              <section className="grid gap-2">
                <h2 className="text-lg font-semibold">About</h2>
                <p className="whitespace-pre-line [overflow-wrap:anywhere]">{profile.provider.bio}</p>
              </section>
            ) : null}
          </>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** The profile's card while it loads: the same boxes and line heights as ProfileSummary's for anyone. */
export function ProfileSummarySkeleton() {
  const stat = (
    <div className="grid gap-0.5 rounded-md border p-3">
      <p className="text-xs">
        <SkeletonText className="w-24" />
      </p>
      <p className="text-xl font-semibold">
        <SkeletonText className="w-8" />
      </p>
    </div>
  );
  return (
    <Card>
      <CardHeader className="flex flex-col items-start gap-4 sm:flex-row sm:items-center">
        <Skeleton className="size-24 shrink-0 rounded-full" />
        <div className="grid min-w-0 gap-1.5">
          <p className="text-3xl font-bold tracking-tight">
            <SkeletonText className="w-40" />
          </p>
          <p className="text-sm">
            <SkeletonText className="w-64 max-w-full" />
          </p>
        </div>
      </CardHeader>
      <CardContent>
        <div className="grid grid-cols-2 gap-3 sm:max-w-md">
          {stat}
          {stat}
        </div>
      </CardContent>
    </Card>
  );
}
